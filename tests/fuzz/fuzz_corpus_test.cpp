// Runs every fuzz harness (tests/fuzz/*_fuzz.hpp, the code the libFuzzer targets run) over its
// checked-in corpus tests/fuzz/corpus/<target>/ in every ctest run, sanitizer build included.
// Files named valid-* are seeds the harness must accept (so the corpus keeps reaching the deep
// paths); every other file (invalid seeds, and crash-* inputs the fuzzer found, kept as
// regression tests) must only be handled without a broken invariant.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz/bls12_377_encoding_fuzz.hpp"
#include "fuzz/ed25519_line_fuzz.hpp"
#include "fuzz/mldsa_line_fuzz.hpp"
#include "fuzz/mlkem_line_fuzz.hpp"
#include "fuzz/msm_input_fuzz.hpp"
#include "fuzz/poseidon2_line_fuzz.hpp"
#include "fuzz/whir_proof_fuzz.hpp"

namespace zkgpu::test {
namespace {

namespace fs = std::filesystem;

std::string corpus_dir() {
  const char* env = std::getenv("ZKGPU_FUZZ_CORPUS");
  return env ? env : ZKGPU_FUZZ_CORPUS;
}

std::vector<uint8_t> read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Runs `accepts` over corpus/<target>/*: true for the valid-* seeds, no exception for any file.
void run_corpus(const std::string& target, const std::function<bool(std::span<const uint8_t>)>& accepts) {
  const fs::path dir = fs::path(corpus_dir()) / target;
  ASSERT_TRUE(fs::is_directory(dir)) << dir;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file()) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  size_t valid = 0, other = 0;
  for (const fs::path& p : files) {
    const std::vector<uint8_t> data = read_file(p);
    const bool must_accept = p.filename().string().rfind("valid-", 0) == 0;
    try {
      const bool ok = accepts(data);
      if (must_accept) {
        EXPECT_TRUE(ok) << p << " is a valid seed but was not accepted";
      }
    } catch (const std::exception& e) {
      ADD_FAILURE() << p << ": " << e.what();
    }
    ++(must_accept ? valid : other);
  }
  EXPECT_GE(valid, 2u) << dir << " needs valid-* seeds";
  EXPECT_GE(other, 1u) << dir << " needs invalid seeds";
}

TEST(FuzzCorpus, MlKemLines) {
  run_corpus("mlkem_line_fuzz", [](auto d) { return fuzz::mlkem_line_one(d) > 0; });
}
TEST(FuzzCorpus, MlDsaLines) {
  run_corpus("mldsa_line_fuzz", [](auto d) { return fuzz::mldsa_line_one(d) > 0; });
}
TEST(FuzzCorpus, Bls12377Encodings) {
  run_corpus("bls12_377_encoding_fuzz", [](auto d) { return fuzz::bls12_377_encoding_one(d) > 0; });
}
TEST(FuzzCorpus, Poseidon2Lines) {
  run_corpus("poseidon2_line_fuzz", [](auto d) { return fuzz::poseidon2_line_one(d) > 0; });
}
TEST(FuzzCorpus, Ed25519Lines) {
  run_corpus("ed25519_line_fuzz", [](auto d) { return fuzz::ed25519_line_one(d) > 0; });
}
TEST(FuzzCorpus, MsmInputs) {
  run_corpus("msm_input_fuzz", [](auto d) { return fuzz::msm_input_one(d) > 0; });
}
TEST(FuzzCorpus, WhirProofs) {
  run_corpus("whir_proof_fuzz", [](auto d) { return fuzz::whir_proof_one_input(d) == fuzz::WhirVerdict::Accepted; });
}

}  // namespace
}  // namespace zkgpu::test

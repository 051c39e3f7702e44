// C2SP/CCTV sets: "modulus" (every ek has one coefficient in [q, 4095]; Encaps must reject all)
// and "strcmp" (a ciphertext starting with a zero byte that must take implicit rejection).
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "mlkem/mlkem_support.hpp"
#include "support/hex.hpp"
#include "support/test_support.hpp"

namespace zkgpu::test {
namespace {

class MlKemCctv : public ::testing::TestWithParam<int> {
 protected:
  MlKemSet set() const { return *parse_mlkem_set(std::to_string(GetParam())); }
};

TEST_P(MlKemCctv, ModulusKeysRejected) {
  // The files are stored gzip-compressed, verbatim from CCTV; gzip is on every CI image.
  const std::string path = vectors_dir() + "/mlkem/cctv_modulus/ML-KEM-" + std::to_string(GetParam()) + ".txt.gz";
  FILE* p = popen(("gzip -dc '" + path + "'").c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::string text;
  char buf[65536];
  for (size_t k; (k = fread(buf, 1, sizeof buf, p)) > 0;) text.append(buf, k);
  ASSERT_EQ(pclose(p), 0) << "gzip -dc " << path;
  const Bytes m(32, 0x42);
  int n = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(pos, end - pos);
    pos = end + 1;
    if (line.empty()) continue;
    const Bytes ek = from_hex(line);
    ASSERT_EQ(ek.size(), mlkem_sizes(set()).ek) << "line " << n + 1;
    EXPECT_FALSE(kem_encaps(set(), ek, m).has_value()) << "line " << n + 1;
    ++n;
  }
  const int expect = GetParam() == 512 ? 775 : GetParam() == 768 ? 780 : 1040;
  EXPECT_EQ(n, expect);
}

TEST_P(MlKemCctv, StrcmpImplicitRejection) {
  std::ifstream f(vectors_dir() + "/mlkem/cctv_strcmp/ML-KEM-" + std::to_string(GetParam()) + ".txt");
  ASSERT_TRUE(f);
  std::string line, dk, c, k;
  while (std::getline(f, line)) {
    if (line.rfind("dk = ", 0) == 0) dk = line.substr(5);
    if (line.rfind("c = ", 0) == 0) c = line.substr(4);
    if (line.rfind("K = ", 0) == 0) k = line.substr(4);
  }
  ASSERT_FALSE(dk.empty() || c.empty() || k.empty());
  ASSERT_EQ(c.substr(0, 2), "00");
  const auto got = kem_decaps(set(), from_hex(dk), from_hex(c));
  ASSERT_TRUE(got);
  EXPECT_EQ(to_hex(*got), k);
}

INSTANTIATE_TEST_SUITE_P(AllSets, MlKemCctv, ::testing::Values(512, 768, 1024));

}  // namespace
}  // namespace zkgpu::test

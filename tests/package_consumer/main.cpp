// Uses the installed headers and library only: an NTT round trip, a Merkle commitment and its
// opening, and an Ed25519 check of RFC 8032's first test vector, each on the CPU backend. Exit 0
// when every result is right, and the version the library reports matches the package's.
#include <cstdio>
#include <cstring>
#include <vector>

#include "zkgpu/ed25519.hpp"
#include "zkgpu/merkle.hpp"
#include "zkgpu/ntt.hpp"
#include "zkgpu/poseidon2.hpp"
#include "zkgpu/version.hpp"

namespace {

int failures = 0;
void check(bool ok, const char* what) {
  std::printf("%s: %s\n", what, ok ? "ok" : "FAILED");
  failures += ok ? 0 : 1;
}

std::vector<uint8_t> from_hex(const char* hex) {
  std::vector<uint8_t> out(std::strlen(hex) / 2);
  for (size_t i = 0; i < out.size(); ++i) std::sscanf(hex + 2 * i, "%2hhx", &out[i]);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace zkgpu;
  check(argc < 2 || std::strcmp(version(), argv[1]) == 0, "version matches the package");

  std::vector<BabyBear> m(1024 * 2);
  for (size_t i = 0; i < m.size(); ++i) m[i] = BabyBear::from_canonical(static_cast<uint32_t>(i * 7919 + 1));
  const std::vector<BabyBear> original = m;
  ntt(m, 10, 2, NttDirection::Forward, BabyBear::one(), Backend::Cpu);
  ntt(m, 10, 2, NttDirection::Inverse, BabyBear::one(), Backend::Cpu);
  check(m == original, "NTT forward then inverse is the identity");

  const auto params = poseidon2_params<16>(Poseidon2Constants::Whir);
  const MerkleTree tree = MerkleTree::build(original, 1024, 2, params, Backend::Cpu);
  check(merkle_verify(tree.root(), 1024, 2, 5, tree.open(5), params), "Merkle opening verifies");

  const auto pk = from_hex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a");
  const auto sig = from_hex(
      "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24"
      "655141438e7a100b");
  check(ed25519_verify(pk, sig, {}, Ed25519Mode::Openssl), "RFC 8032 test 1 verifies");
  return failures == 0 ? 0 : 1;
}

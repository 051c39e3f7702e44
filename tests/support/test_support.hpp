// Helpers shared by the test files: vector loading, seeded randomness, GPU skipping.
#pragma once
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <initializer_list>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "zkgpu/core/field/babybear.hpp"
#include "zkgpu/core/field/babybear_ext4.hpp"
#include "zkgpu/backend.hpp"

namespace zkgpu::test {

// Build-time paths, overridable at run time (binaries built on one machine and run on another).
inline std::string vectors_dir() {
  const char* env = std::getenv("ZKGPU_VECTORS_DIR");
  return env ? env : ZKGPU_VECTORS_DIR;
}
inline std::string cli_path() {
  const char* env = std::getenv("ZKGPU_CLI_PATH");
  return env ? env : ZKGPU_CLI_PATH;
}

inline nlohmann::json load_vectors(const std::string& relpath) {
  std::string path = vectors_dir() + "/" + relpath;
  std::ifstream f(path);
  if (!f) throw std::runtime_error("cannot open test vector file " + path);
  return nlohmann::json::parse(f);
}

// Deterministic per-test seed; ZKGPU_TEST_SEED overrides it to explore other inputs.
inline uint64_t test_seed(uint64_t salt = 0) {
  uint64_t base = 0x5eed2026;
  if (const char* s = std::getenv("ZKGPU_TEST_SEED")) base = std::strtoull(s, nullptr, 0);
  return base ^ (salt * 0x9e3779b97f4a7c15ull);
}

// ZKGPU_TEST_SMALL=1: the GPU tests take their small sizes, which launch the same kernels through
// the same code paths (chunking, slicing, pass structures) on fewer items, so that the whole GPU
// set runs under each compute-sanitizer tool in minutes (scripts/gpu-check.sh --sanitize;
// docs/gpu-testing.md lists what changes per suite). Unset, empty or 0: the full sizes. Any other
// value is an error, never ignored.
inline bool small_mode() {
  static const bool on = [] {
    const char* e = std::getenv("ZKGPU_TEST_SMALL");
    if (!e || !*e || std::string_view(e) == "0") return false;
    if (std::string_view(e) == "1") return true;
    throw std::invalid_argument(std::string("ZKGPU_TEST_SMALL must be 0 or 1, got \"") + e + "\"");
  }();
  return on;
}

// The full-size value, or the small-mode one.
template <class T>
T sized(T full, T small) {
  return small_mode() ? small : full;
}
template <class T>
std::vector<T> sized(std::initializer_list<T> full, std::initializer_list<T> small) {
  return small_mode() ? std::vector<T>(small) : std::vector<T>(full);
}

struct Rng {
  std::mt19937_64 gen;
  explicit Rng(uint64_t salt = 0) : gen(test_seed(salt)) {}
  uint32_t u32() { return static_cast<uint32_t>(gen()); }
  BabyBear fe() { return BabyBear::from_canonical(static_cast<uint32_t>(gen() % BabyBear::P)); }
  BabyBear4 fe4() { return {{fe(), fe(), fe(), fe()}}; }
  std::vector<uint8_t> bytes(size_t n) {
    std::vector<uint8_t> b(n);
    for (auto& x : b) x = static_cast<uint8_t>(u32());
    return b;
  }
  std::vector<BabyBear> fes(size_t n) {
    std::vector<BabyBear> v(n);
    for (auto& x : v) x = fe();
    return v;
  }
};

inline std::vector<BabyBear> canonical_vec(const nlohmann::json& arr) {
  std::vector<BabyBear> v;
  for (auto& x : arr) v.push_back(BabyBear::from_canonical(x.get<uint32_t>()));
  return v;
}

// A poisoned value for output buffers: every real output must overwrite it.
inline constexpr uint32_t POISON_WORD = 0xffffffffu;  // not a valid Montgomery word (>= p)

}  // namespace zkgpu::test

// GPU tests call this first: they run only where a CUDA device is usable.
#define ZKGPU_REQUIRE_GPU()                                                                               \
  do {                                                                                                    \
    if (!::zkgpu::cuda_usable()) GTEST_SKIP() << "no usable GPU: " << ::zkgpu::cuda_unavailable_reason(); \
  } while (0)

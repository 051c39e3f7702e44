// Every packed BabyBear type against scalar BabyBear: same canonical Montgomery words, lane by lane.
#include <array>
#include <vector>

#include "field/cpu/packed_scalar.hpp"
#include "field/packed_ops.hpp"
#include "support/test_support.hpp"

namespace zkgpu {
namespace {

using test::PACKED_OPS;

struct Inputs {
  std::vector<BabyBear> a, b, c;
};

// Random values plus the edges where the min_epu32 corrections switch: 0, 1, p-1, p-2, R mod p.
Inputs make_inputs(size_t n) {
  test::Rng rng(0xa11);
  Inputs in{rng.fes(n), rng.fes(n), rng.fes(n)};
  const uint32_t edge[] = {
      0, 1, 2, BabyBear::P - 1, BabyBear::P - 2, BabyBear::R_MOD_P, BabyBear::P / 2, BabyBear::P / 2 + 1};
  size_t k = 0;
  for (uint32_t x : edge)
    for (uint32_t y : edge) {
      in.a[k] = BabyBear::from_monty(x);
      in.b[k] = BabyBear::from_monty(y);
      in.c[k] = BabyBear::from_monty(edge[(k * 3) % 8]);
      ++k;
    }
  return in;
}

using Driver = void (*)(const BabyBear*, const BabyBear*, const BabyBear*, size_t, BabyBear* const[PACKED_OPS]);

void check_against_scalar(Driver drive) {
  constexpr size_t n = 4096;
  Inputs in = make_inputs(n);
  std::array<std::vector<BabyBear>, PACKED_OPS> got;
  BabyBear* out[PACKED_OPS];
  for (int k = 0; k < PACKED_OPS; ++k) {
    got[k].assign(n, BabyBear::from_monty(test::POISON_WORD));
    out[k] = got[k].data();
  }
  drive(in.a.data(), in.b.data(), in.c.data(), n, out);
  for (size_t i = 0; i < n; ++i) {
    BabyBear x = in.a[i], y = in.b[i], z = in.c[i];
    const BabyBear want[PACKED_OPS] = {x + y, x - y, x * y, -x, x.dbl(), ((x + y) - z) * y, in.b[0] * x, x, x};
    for (int k = 0; k < PACKED_OPS; ++k) {
      ASSERT_LT(got[k][i].v, BabyBear::P) << "op " << k << " element " << i;
      ASSERT_EQ(got[k][i].v, want[k].v) << "op " << k << " element " << i << " a=" << x.v << " b=" << y.v;
    }
  }
}

TEST(PackedField, ScalarMatchesBabyBear) { check_against_scalar(test::packed_ops<cpu::PackedScalar>); }

TEST(PackedField, Avx2MatchesScalar) {
  if (!cpu_features().avx2) GTEST_SKIP() << "CPU has no AVX2";
  check_against_scalar(test::packed_ops_avx2);
}

TEST(PackedField, Avx512MatchesScalar) {
  if (!cpu_features().avx512) GTEST_SKIP() << "CPU has no AVX-512";
  check_against_scalar(test::packed_ops_avx512);
}

}  // namespace
}  // namespace zkgpu

// One-lane "packed" BabyBear: the portable fallback of the packed interface, so every SIMD
// kernel template also instantiates for plain scalar code (and any CPU can run it).
#pragma once
#include "zkgpu/core/field/babybear.hpp"

namespace zkgpu::cpu {

struct PackedScalar {
  static constexpr unsigned LANES = 1;
  BabyBear x;

  static PackedScalar load(const BabyBear* p) { return {p[0]}; }
  void store(BabyBear* p) const { p[0] = x; }
  static PackedScalar broadcast(BabyBear a) { return {a}; }
  static PackedScalar zero() { return {BabyBear::zero()}; }

  PackedScalar operator+(PackedScalar o) const { return {x + o.x}; }
  PackedScalar operator-(PackedScalar o) const { return {x - o.x}; }
  PackedScalar operator*(PackedScalar o) const { return {x * o.x}; }
  PackedScalar operator-() const { return {-x}; }
  PackedScalar& operator+=(PackedScalar o) { return *this = *this + o; }
  PackedScalar& operator-=(PackedScalar o) { return *this = *this - o; }
  PackedScalar& operator*=(PackedScalar o) { return *this = *this * o; }
  PackedScalar dbl() const { return {x.dbl()}; }
};

}  // namespace zkgpu::cpu

// Field words at the C ABI's edge (BabyBear; KoalaBear for the permutation): the two
// representations of zkgpu_babybear_repr. Montgomery
// words are the library's own layout, so those buffers are used in place (a span over the
// caller's memory); canonical values are converted. Every input word is checked (< p) first.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "zkgpu.h"
#include "zkgpu/core/field/babybear.hpp"
#include "zkgpu/core/field/babybear_ext4.hpp"
#include "zkgpu/core/field/koalabear.hpp"
#include "zkgpu/core/hash/sponge.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu::capi {

// BabyBear is one uint32_t holding the Montgomery word (static_assert below), so a buffer of
// Montgomery words is a buffer of BabyBear: the Plonky3 layout the library is built on.
static_assert(sizeof(BabyBear) == sizeof(uint32_t) && alignof(BabyBear) == alignof(uint32_t));
static_assert(sizeof(KoalaBear) == sizeof(uint32_t) && alignof(KoalaBear) == alignof(uint32_t));
static_assert(sizeof(BabyBear4) == 4 * sizeof(uint32_t) && sizeof(Digest) == 8 * sizeof(uint32_t));

enum class Repr { Canonical, Montgomery };
Repr repr_of(const zkgpu_babybear_repr& r);

// Error(InvalidArgument) naming what[i] when a word is >= p.
void require_words(const uint32_t* words, size_t n, const char* what);
BabyBear from_word(uint32_t w, Repr r);  // w < p
uint32_t to_word(BabyBear x, Repr r);
// One checked scalar argument (a shift, say).
BabyBear field_arg(uint32_t w, Repr r, const char* what);

// Caller words as BabyBear for the duration of a call: a view of them (Montgomery) or a
// converted copy (canonical). Checked on construction.
class FieldInput {
 public:
  FieldInput(const uint32_t* words, size_t n, Repr r, const char* what);
  std::span<const BabyBear> span() const { return view_; }
  // The copy, or a new one of the caller's words, to hand over to an API that takes ownership.
  std::vector<BabyBear> take() &&;

 private:
  std::vector<BabyBear> copy_;
  std::span<const BabyBear> view_;
};

// The field's name in messages.
template <class F>
constexpr const char* field_name() {
  return std::is_same_v<F, KoalaBear> ? "KoalaBear" : "BabyBear";
}

// Error(InvalidArgument) naming what[i] when a word is >= F's p.
template <class F>
void require_field_words(const uint32_t* words, size_t n, const char* what) {
  for (size_t i = 0; i < n; ++i)
    if (words[i] >= F::P)
      throw_invalid(std::string(what) + "[" + std::to_string(i) + "] = " + std::to_string(words[i]) + " is not a " +
                    field_name<F>() + " word (must be < p = " + std::to_string(F::P) + ")");
}

// Caller words transformed in place: converted to Montgomery (canonical) when opened, back when
// closed. Checked on construction, before anything is written. F is BabyBear unless named.
template <class F = BabyBear>
class FieldInPlace {
 public:
  FieldInPlace(uint32_t* words, size_t n, Repr r, const char* what) : repr_(r) {
    require_field_words<F>(words, n, what);
    view_ = {reinterpret_cast<F*>(words), n};
    if (r == Repr::Canonical)
      for (F& x : view_) x = F::from_canonical(x.v);
  }
  std::span<F> span() const { return view_; }
  void close() {
    if (repr_ == Repr::Canonical)
      for (F& x : view_) x.v = x.canonical();
  }

 private:
  std::span<F> view_;
  Repr repr_;
};

void write_words(std::span<const BabyBear> xs, uint32_t* out, Repr r);
// n extension elements of 4 words each.
std::vector<BabyBear4> read_ext(const uint32_t* words, size_t n, Repr r, const char* what);
void write_digest(const Digest& d, uint32_t* out, Repr r);
Digest read_digest(const uint32_t* words, Repr r, const char* what);

}  // namespace zkgpu::capi

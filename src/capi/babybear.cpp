// BabyBear words at the C ABI's edge (babybear.hpp).
#include "capi/babybear.hpp"

#include <string>

#include "capi/capi.hpp"  // raw_enum
#include "zkgpu/status.hpp"

namespace zkgpu::capi {

Repr repr_of(const zkgpu_babybear_repr& r) {
  static_assert(ZKGPU_BABYBEAR_CANONICAL == 0 && ZKGPU_BABYBEAR_MONTGOMERY == 1);
  constexpr Repr values[] = {Repr::Canonical, Repr::Montgomery};
  return enum_of(r, values, "repr", "zkgpu_babybear_repr", "0 CANONICAL, 1 MONTGOMERY");
}

void require_words(const uint32_t* words, size_t n, const char* what) { require_field_words<BabyBear>(words, n, what); }

BabyBear from_word(uint32_t w, Repr r) {
  return r == Repr::Montgomery ? BabyBear::from_monty(w) : BabyBear::from_canonical(w);
}

uint32_t to_word(BabyBear x, Repr r) { return r == Repr::Montgomery ? x.v : x.canonical(); }

BabyBear field_arg(uint32_t w, Repr r, const char* what) {
  require_words(&w, 1, what);
  return from_word(w, r);
}

FieldInput::FieldInput(const uint32_t* words, size_t n, Repr r, const char* what) {
  require_words(words, n, what);
  if (r == Repr::Montgomery) {
    view_ = {reinterpret_cast<const BabyBear*>(words), n};
    return;
  }
  copy_.resize(n);
  for (size_t i = 0; i < n; ++i) copy_[i] = BabyBear::from_canonical(words[i]);
  view_ = copy_;
}

std::vector<BabyBear> FieldInput::take() && {
  if (copy_.empty()) return {view_.begin(), view_.end()};
  return std::move(copy_);
}

void write_words(std::span<const BabyBear> xs, uint32_t* out, Repr r) {
  for (size_t i = 0; i < xs.size(); ++i) out[i] = to_word(xs[i], r);
}

std::vector<BabyBear4> read_ext(const uint32_t* words, size_t n, Repr r, const char* what) {
  require_words(words, 4 * n, what);
  std::vector<BabyBear4> out(n);
  for (size_t i = 0; i < n; ++i)
    for (int j = 0; j < 4; ++j) out[i].c[j] = from_word(words[4 * i + j], r);
  return out;
}

void write_digest(const Digest& d, uint32_t* out, Repr r) { write_words(d.e, out, r); }

Digest read_digest(const uint32_t* words, Repr r, const char* what) {
  require_words(words, Digest::ELEMS, what);
  Digest d;
  for (int i = 0; i < Digest::ELEMS; ++i) d.e[i] = from_word(words[i], r);
  return d;
}

}  // namespace zkgpu::capi

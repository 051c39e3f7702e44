#include "zkgpu/challenger.hpp"

#include <string>

#include "zkgpu/pow.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu {
namespace {

void check_bits(unsigned bits, const char* what) {
  if (bits > 30)
    throw_invalid(std::string(what) + ": bits = " + std::to_string(bits) +
                  " must be <= 30 (2^bits must be below p = 2013265921)");
}

}  // namespace

DuplexChallenger::DuplexChallenger(Poseidon2Params<16> params, AbsorbRule rule) : params_(params), rule_(rule) {
  for (auto& x : state_) x = BabyBear::zero();
}

void DuplexChallenger::duplexing() {
  for (size_t i = 0; i < n_in_; ++i) state_[i] = in_[i];
  if (rule_ == AbsorbRule::LengthBindingHead && n_in_ > 0) {
    for (size_t i = n_in_; i < RATE; ++i) state_[i] = BabyBear::zero();
    state_[RATE] += BabyBear::from_canonical(static_cast<uint32_t>(n_in_));
  }
  n_in_ = 0;
  poseidon2_permute<16>(state_, params_);
  for (int i = 0; i < RATE; ++i) out_[i] = state_[i];
  n_out_ = RATE;
}

void DuplexChallenger::observe(BabyBear x) {
  n_out_ = 0;
  in_[n_in_++] = x;
  if (n_in_ == RATE) duplexing();
}

void DuplexChallenger::observe(const BabyBear4& x) {
  for (const BabyBear& c : x.c) observe(c);
}

void DuplexChallenger::observe(const Digest& d) {
  for (const BabyBear& c : d.e) observe(c);
}

void DuplexChallenger::observe_slice(std::span<const BabyBear> xs) {
  for (const BabyBear& x : xs) observe(x);
}

BabyBear DuplexChallenger::sample() {
  if (n_in_ > 0 || n_out_ == 0) duplexing();
  return out_[--n_out_];
}

BabyBear4 DuplexChallenger::sample_ext() {
  BabyBear4 e;
  for (BabyBear& c : e.c) c = sample();
  return e;
}

uint32_t DuplexChallenger::sample_bits(unsigned bits) {
  check_bits(bits, "sample_bits");
  return sample().canonical() & ((1u << bits) - 1u);
}

bool DuplexChallenger::check_witness(unsigned bits, BabyBear w) {
  check_bits(bits, "check_witness");
  if (bits == 0) return true;
  observe(w);
  return sample_bits(bits) == 0;
}

PowInput DuplexChallenger::pow_input(unsigned bits) const {
  if (bits < 1 || bits > 30)
    throw_invalid("pow_input: bits = " + std::to_string(bits) + " is outside 1..30 (2^bits must be < p)");
  PowInput in{};
  for (int i = 0; i < WIDTH; ++i) in.state[i] = state_[i];
  for (size_t i = 0; i < n_in_; ++i) in.pending[i] = in_[i];
  in.n_pending = static_cast<uint32_t>(n_in_);
  in.bits = bits;
  if (rule_ == AbsorbRule::LengthBindingHead) {
    // observe(w) makes the buffer n_in_ + 1 >= 1 long, so the next duplexing always zero-fills
    // past the witness and adds that length to state[8]; doing both here leaves the 090b
    // overwrite of slots 0..n_in_ as the only per-candidate step, which pow_witness_ok models.
    const size_t n = n_in_ + 1;
    for (size_t i = n; i < RATE; ++i) in.state[i] = BabyBear::zero();
    in.state[RATE] += BabyBear::from_canonical(static_cast<uint32_t>(n));
  }
  return in;
}

uint32_t DuplexChallenger::grind(unsigned bits, Backend backend, bool deterministic) {
  check_bits(bits, "grind");
  if (bits == 0) return 0;
  const Backend used = resolve_backend(backend, bits, POW_GPU_CROSSOVER_BITS);
  const uint32_t w = pow_grind(pow_input(bits), params_, used, deterministic);
  // The search and check_witness evaluate the same permutation, so a mismatch is a backend bug.
  if (!check_witness(bits, BabyBear::from_canonical(w)))
    throw Error(used == Backend::Cuda ? ErrorCode::CudaError : ErrorCode::InvalidArgument,
                std::string("the ") + to_string(used) + " proof-of-work search returned w = " + std::to_string(w) +
                    ", which fails check_witness (a zkgpu bug; retry with the other backend)");
  return w;
}

}  // namespace zkgpu

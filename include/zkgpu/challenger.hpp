// Plonky3's DuplexChallenger<BabyBear, Poseidon2-16, WIDTH 16, RATE 8> with its GrindingChallenger
// proof of work (spec §7), the Fiat-Shamir transcript of WHIR over BabyBear.
#pragma once
#include <cstdint>
#include <span>

#include "zkgpu/core/field/babybear.hpp"
#include "zkgpu/core/field/babybear_ext4.hpp"
#include "zkgpu/core/hash/pow.hpp"
#include "zkgpu/core/hash/sponge.hpp"
#include "zkgpu/core/poseidon2/poseidon2.hpp"
#include "zkgpu/backend.hpp"

namespace zkgpu {

// How duplexing absorbs n < 8 buffered inputs. Overwrite090b (Plonky3 090b, whir-p3-metal) writes
// them over state[0..n) and keeps state[n..8); LengthBindingHead (Plonky3 HEAD, PR #1769) also
// zeroes state[n..8) and adds n to state[8]. Both sides of a proof must use the same rule.
enum class AbsorbRule { Overwrite090b, LengthBindingHead };

class DuplexChallenger {
 public:
  static constexpr int WIDTH = 16;
  static constexpr int RATE = 8;

  explicit DuplexChallenger(Poseidon2Params<16> params, AbsorbRule rule = AbsorbRule::Overwrite090b);

  void observe(BabyBear x);
  void observe(const BabyBear4& x);  // c0, c1, c2, c3
  void observe(const Digest& d);     // the 8 elements in order
  void observe_slice(std::span<const BabyBear> xs);

  BabyBear sample();
  BabyBear4 sample_ext();  // c0 first
  // canonical(sample()) & (2^bits - 1); Error(InvalidArgument) for bits > 30 (2^bits must be < p),
  // raised before anything is consumed.
  uint32_t sample_bits(unsigned bits);

  // Plonky3's grind: finds a witness w (the smallest when deterministic), then runs
  // check_witness(bits, w) on this challenger, so the transcript holds w and one consumed sample.
  // Returns canonical(w). bits == 0 observes nothing and returns 0. Error(InvalidArgument) for
  // bits > 30 or when no witness exists in [0, p).
  uint32_t grind(unsigned bits, Backend backend = Backend::Auto, bool deterministic = true);
  // bits == 0: true, nothing observed. Else observe(w) and sample_bits(bits) == 0.
  // Error(InvalidArgument) for bits > 30, raised before anything is observed.
  [[nodiscard]] bool check_witness(unsigned bits, BabyBear w);

  // What the PoW search must evaluate for the next grind(bits): the 090b-rule view of this
  // challenger, with the HEAD rule's zero fill and length add applied to the state in advance
  // (exact, because the witness completes the next duplexing). bits must be 1..30.
  PowInput pow_input(unsigned bits) const;

  std::span<const BabyBear, WIDTH> state() const { return std::span<const BabyBear, WIDTH>(state_, WIDTH); }
  std::span<const BabyBear> input_buffer() const { return {in_, n_in_}; }
  // Pending outputs; sample() pops from the end.
  std::span<const BabyBear> output_buffer() const { return {out_, n_out_}; }
  AbsorbRule rule() const { return rule_; }
  const Poseidon2Params<16>& params() const { return params_; }

 private:
  void duplexing();

  Poseidon2Params<16> params_;
  AbsorbRule rule_;
  BabyBear state_[WIDTH];
  BabyBear in_[RATE];
  BabyBear out_[RATE];
  size_t n_in_ = 0, n_out_ = 0;
};

}  // namespace zkgpu

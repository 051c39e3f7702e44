#include "zkgpu/pow.hpp"

#include <string>

#include "pow/cpu/pow_cpu.hpp"
#include "zkgpu/status.hpp"
#if ZKGPU_HAVE_CUDA
#include "pow/cuda/api.hpp"
#endif

namespace zkgpu {

uint32_t pow_grind(const PowInput& in, const Poseidon2Params<16>& p, const PowOptions& options) {
  if (in.bits < 1 || in.bits > 30)
    throw_invalid("proof-of-work bits = " + std::to_string(in.bits) + " is outside 1..30 (2^bits must be < p)");
  if (resolve_backend(options.backend, in.bits, options.gpu_crossover_bits) == Backend::Cuda) {
#if ZKGPU_HAVE_CUDA
    return cuda::pow_grind_host(in, p, options.deterministic);
#endif
  }
  return cpu::pow_grind(in, p, options.deterministic);
}

uint32_t pow_grind(const PowInput& in, const Poseidon2Params<16>& p, Backend backend, bool deterministic) {
  return pow_grind(in, p, PowOptions{.backend = backend, .deterministic = deterministic});
}

}  // namespace zkgpu

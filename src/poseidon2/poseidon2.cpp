// Public batch Poseidon2 entry point: validation, backend choice, CPU or CUDA path.
#include "zkgpu/poseidon2.hpp"

#include <string>

#include "poseidon2/cpu/batch.hpp"
#include "zkgpu/status.hpp"

#if ZKGPU_HAVE_CUDA
#include "poseidon2/cuda/api.hpp"
#endif

namespace zkgpu {

namespace {

template <int W>
void permute_width(std::span<BabyBear> states, Poseidon2Constants constants, Backend backend) {
  const size_t n_states = states.size() / W;
  const Backend resolved = resolve_backend(backend, n_states, POSEIDON2_GPU_CROSSOVER_STATES);
  if (n_states == 0) return;
  const Poseidon2Params<W> p = poseidon2_params<W>(constants);
  if (resolved == Backend::Cuda) {
#if ZKGPU_HAVE_CUDA
    cuda::poseidon2_permute_host(states.data(), n_states, p);
    return;
#endif
  }
  cpu::poseidon2_permute_batch(states.data(), n_states, p);
}

}  // namespace

void poseidon2_permute_batch(std::span<BabyBear> states, int width, Poseidon2Constants constants, Backend backend) {
  if (width != 16 && width != 24)
    throw_invalid("poseidon2_permute_batch: width " + std::to_string(width) + " is not supported (use 16 or 24)");
  if (states.size() % static_cast<size_t>(width) != 0)
    throw_invalid("poseidon2_permute_batch: " + std::to_string(states.size()) +
                  " field elements are not a whole number of width-" + std::to_string(width) + " states");
  if (width == 16)
    permute_width<16>(states, constants, backend);
  else
    permute_width<24>(states, constants, backend);
}

}  // namespace zkgpu

// Public batch Poseidon2 entry point: validation, backend choice, CPU or CUDA path.
#include "zkgpu/poseidon2.hpp"

#include <limits>
#include <string>

#include "poseidon2/cpu/batch.hpp"
#include "zkgpu/status.hpp"

#if ZKGPU_HAVE_CUDA
#include "poseidon2/cuda/api.hpp"
#include "runtime/cuda/caller_memory.hpp"
#endif

namespace zkgpu {

namespace {

template <int W, class F>
void permute_width(std::span<F> states, const Poseidon2Params<W, F>& p, const Poseidon2BatchOptions& options) {
  const size_t n_states = states.size() / W;
  const Backend resolved = resolve_backend(options.backend, n_states, options.gpu_crossover);
  if (n_states == 0) return;
  if (resolved == Backend::Cuda) {
#if ZKGPU_HAVE_CUDA
    cuda::poseidon2_permute_host(states.data(), n_states, p);
    return;
#endif
  }
  cpu::poseidon2_permute_batch(states.data(), n_states, p);
}

void check_width(const char* op, int width) {
  if (width != 16 && width != 24)
    throw_invalid(std::string(op) + ": width " + std::to_string(width) + " is not supported (use 16 or 24)");
}

template <class F>
void check_states(std::span<F> states, int width) {
  check_width("poseidon2_permute_batch", width);
  if (states.size() % static_cast<size_t>(width) != 0)
    throw_invalid("poseidon2_permute_batch: " + std::to_string(states.size()) +
                  " field elements are not a whole number of width-" + std::to_string(width) + " states");
}

}  // namespace

void poseidon2_permute_batch(std::span<BabyBear> states, int width, Poseidon2Constants constants,
                             const Poseidon2BatchOptions& options) {
  check_states(states, width);
  if (width == 16)
    permute_width<16>(states, poseidon2_params<16>(constants), options);
  else
    permute_width<24>(states, poseidon2_params<24>(constants), options);
}

void poseidon2_permute_batch(std::span<KoalaBear> states, int width, KoalaBearPoseidon2Constants constants,
                             const Poseidon2BatchOptions& options) {
  check_states(states, width);
  if (width == 16)
    permute_width<16>(states, koalabear_poseidon2_params<16>(constants), options);
  else
    permute_width<24>(states, koalabear_poseidon2_params<24>(constants), options);
}

void poseidon2_permute_batch(std::span<BabyBear> states, int width, Poseidon2Constants constants, Backend backend) {
  poseidon2_permute_batch(states, width, constants, Poseidon2BatchOptions{.backend = backend});
}

void poseidon2_permute_batch_device(BabyBear* d_states, size_t n_states, int width, Poseidon2Constants constants,
                                    GpuStream stream) {
  check_width("poseidon2_permute_batch_device", width);
  const size_t w = static_cast<size_t>(width);
  if (n_states > std::numeric_limits<size_t>::max() / (w * sizeof(BabyBear)))
    throw_invalid("poseidon2_permute_batch_device: " + std::to_string(n_states) + " states overflow size_t");
  resolve_backend(Backend::Cuda, n_states, 0);  // Error(Unavailable) without a usable GPU
  if (n_states == 0) return;
#if ZKGPU_HAVE_CUDA
  cuda::require_device_pointer(d_states, n_states * w * sizeof(BabyBear), "poseidon2_permute_batch_device: d_states");
  if (width == 16)
    cuda::poseidon2_permute_on_stream(d_states, n_states, poseidon2_params<16>(constants), stream.handle);
  else
    cuda::poseidon2_permute_on_stream(d_states, n_states, poseidon2_params<24>(constants), stream.handle);
#else
  (void)d_states, (void)constants, (void)stream;
#endif
}

}  // namespace zkgpu

// The kernel-only Ed25519 timing of the bench (internals.hpp): the batch packed and uploaded once,
// then the public device-pointer call timed with CUDA events on a stream of its own, so the
// library keeps no timing helper of its own.
#include <algorithm>
#include <string>
#include <vector>

#include "bench_support/cuda/event_timing.cuh"
#include "bench_support/internals.hpp"
#include "ed25519/cuda/backend.hpp"
#include "runtime/cuda/runtime.cuh"
#include "zkgpu/status.hpp"

namespace zkgpu::bench {

std::vector<double> time_ed25519_kernel(std::span<const Ed25519Item> items, Ed25519Mode mode, int warmup, int runs,
                                        std::optional<size_t> coop_max) {
  if (warmup < 0 || runs < 1)
    throw_invalid("time_ed25519_kernel: need warmup >= 0 and runs >= 1, got " + std::to_string(warmup) + ", " +
                  std::to_string(runs));
  if (items.empty()) return {};
  const size_t n = items.size();
  std::vector<uint8_t> keys(32 * n), sigs(64 * n), msgs;
  std::vector<uint64_t> offsets(n + 1, 0);
  for (size_t i = 0; i < n; ++i) {
    if (items[i].public_key.size() != 32 || items[i].signature.size() != 64)
      throw_invalid("time_ed25519_kernel: item " + std::to_string(i) + " has a key or signature of the wrong length");
    std::copy(items[i].public_key.begin(), items[i].public_key.end(), keys.begin() + 32 * i);
    std::copy(items[i].signature.begin(), items[i].signature.end(), sigs.begin() + 64 * i);
    msgs.insert(msgs.end(), items[i].message.begin(), items[i].message.end());
    offsets[i + 1] = msgs.size();
  }
  using cuda::DeviceBuffer;
  cuda::Stream stream;
  DeviceBuffer<uint8_t> d_keys(keys.size()), d_sigs(sigs.size()), d_msgs(msgs.size()), d_out(n);
  DeviceBuffer<uint64_t> d_offsets(offsets.size());
  d_keys.upload(keys.data(), keys.size(), stream);
  d_sigs.upload(sigs.data(), sigs.size(), stream);
  if (!msgs.empty()) d_msgs.upload(msgs.data(), msgs.size(), stream);
  d_offsets.upload(offsets.data(), offsets.size(), stream);
  const Ed25519PackedBatch batch{{d_keys.data(), keys.size()},
                                 {d_sigs.data(), sigs.size()},
                                 {d_msgs.data(), msgs.size()},
                                 {d_offsets.data(), offsets.size()}};
  auto run = [&](cuda::Stream& st) {
    if (!coop_max) return ed25519_verify_batch_device(batch, d_out.data(), mode, GpuStream{st.get()});
    const ed25519::cuda::ItemArrays arrays{d_keys.data(), d_sigs.data(), d_offsets.data(),
                                           d_msgs.data(), msgs.size(),   n};
    ed25519::cuda::verify_on_stream(arrays, d_out.data(), static_cast<ed25519::VerifyMode>(mode), st.get(),
                                    {.coop_max = *coop_max});
  };
  return time_runs(warmup, runs, stream, run);
}

}  // namespace zkgpu::bench

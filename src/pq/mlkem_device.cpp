// The ML-KEM device-pointer calls (zkgpu/mlkem.hpp *_device): every check before anything is
// enqueued (device_calls.hpp), then the CUDA backend on the caller's buffers and stream. The
// kernels read whole 8-byte words, so every buffer is 8-byte aligned (item sizes are multiples of
// 8, so then every item is).
#include <cstddef>
#include <cstdint>

#include "pq/device_calls.hpp"
#include "pq/pq_common.hpp"
#include "pq/pq_cuda.hpp"
#include "zkgpu/mlkem.hpp"

namespace zkgpu {

namespace {
constexpr size_t WORD = 8;

// The buffers of an encapsulation: ek (and m, unless the call draws it) in, ct, key and status out.
void check_encaps(const char* op, MlKemSet set, const uint8_t* ek, bool with_m, const uint8_t* m, const uint8_t* ct,
                  const uint8_t* key, const PqStatus* status, size_t n, const PqBatchOptions& options) {
  const MlKemSizes sz = mlkem_sizes(set);
  const size_t eb = pq::device_bytes(op, n, sz.ek, "ek");
  const size_t mb = with_m ? pq::device_bytes(op, n, MlKemSizes::msg, "m") : 0;
  const size_t cb = pq::device_bytes(op, n, sz.ct, "ct"), kb = pq::device_bytes(op, n, MlKemSizes::key, "key");
  pq::check_device_call(op, options, n,
                        {{ek, eb, "ek", false, WORD},
                         {m, mb, "m", false, WORD},
                         {ct, cb, "ct", true, WORD},
                         {key, kb, "key", true, WORD},
                         {status, n, "status", true}});
}
}  // namespace

void mlkem_keygen_batch_device(MlKemSet set, const uint8_t* seeds, uint8_t* ek, uint8_t* dk, size_t n, GpuStream stream,
                               const PqBatchOptions& options) {
  const MlKemSizes sz = mlkem_sizes(set);
  pq::check_keygen_device("mlkem_keygen_batch_device", options, n, seeds, MlKemSizes::seed, {ek, sz.ek, "ek", true},
                          {dk, sz.dk, "dk", true}, WORD);
  if (n == 0) return;
#if ZKGPU_HAVE_CUDA
  cuda::mlkem_keygen_device(int(set), n, seeds, ek, dk, stream.handle, pq::gpu_options(options));
#else
  (void)stream;
#endif
}

void mlkem_encaps_batch_device(MlKemSet set, const uint8_t* ek, const uint8_t* m, uint8_t* ct, uint8_t* key,
                               PqStatus* status, size_t n, GpuStream stream, const PqBatchOptions& options) {
  check_encaps("mlkem_encaps_batch_device", set, ek, true, m, ct, key, status, n, options);
  if (n == 0) return;
#if ZKGPU_HAVE_CUDA
  cuda::mlkem_encaps_device(int(set), n, ek, m, ct, key, reinterpret_cast<uint8_t*>(status), stream.handle,
                            pq::gpu_options(options));
#else
  (void)stream;
#endif
}

void mlkem_encaps_random_batch_device(MlKemSet set, const uint8_t* ek, uint8_t* ct, uint8_t* key, PqStatus* status,
                                      size_t n, GpuStream stream, const PqBatchOptions& options) {
  check_encaps("mlkem_encaps_random_batch_device", set, ek, false, nullptr, ct, key, status, n, options);
  if (n == 0) return;
#if ZKGPU_HAVE_CUDA
  cuda::mlkem_encaps_random_device(int(set), n, ek, ct, key, reinterpret_cast<uint8_t*>(status), stream.handle,
                                   pq::gpu_options(options));
#else
  (void)stream;
#endif
}

void mlkem_decaps_batch_device(MlKemSet set, const uint8_t* dk, const uint8_t* ct, uint8_t* key, PqStatus* status,
                               size_t n, GpuStream stream, const PqBatchOptions& options) {
  const char* op = "mlkem_decaps_batch_device";
  const MlKemSizes sz = mlkem_sizes(set);
  pq::check_device_call(op, options, n,
                        {{dk, pq::device_bytes(op, n, sz.dk, "dk"), "dk", false, WORD},
                         {ct, pq::device_bytes(op, n, sz.ct, "ct"), "ct", false, WORD},
                         {key, pq::device_bytes(op, n, MlKemSizes::key, "key"), "key", true, WORD},
                         {status, n, "status", true}});
  if (n == 0) return;
#if ZKGPU_HAVE_CUDA
  cuda::mlkem_decaps_device(int(set), n, dk, ct, key, reinterpret_cast<uint8_t*>(status), stream.handle,
                            pq::gpu_options(options));
#else
  (void)stream;
#endif
}

}  // namespace zkgpu

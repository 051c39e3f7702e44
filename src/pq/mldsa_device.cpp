// The ML-DSA device-pointer calls (zkgpu/mldsa.hpp *_device): the counts of the packed batch and
// every buffer checked before anything is enqueued (device_calls.hpp), then the CUDA backend on
// the caller's buffers and stream. The offsets themselves are checked on the device, per item
// (MlDsaPackedMessages): the host cannot read them without a copy and a wait.
#include <cstddef>
#include <cstdint>
#include <string>

#include "pq/device_calls.hpp"
#include "pq/pq_common.hpp"
#include "pq/pq_cuda.hpp"
#include "zkgpu/mldsa.hpp"

namespace zkgpu {

namespace {

// The item count of a packed buffer of whole keys.
size_t items_of(const char* op, std::span<const uint8_t> keys, size_t key_bytes, const char* name) {
  if (keys.size() % key_bytes != 0)
    throw_invalid(std::string(op) + ": " + name + " holds " + std::to_string(keys.size()) +
                  " bytes, not a whole number of " + std::to_string(key_bytes) + "-byte keys");
  return keys.size() / key_bytes;
}

void check_offsets(const char* op, std::span<const uint64_t> offsets, size_t n, const char* name) {
  if (offsets.size() != n + 1 && !(n == 0 && offsets.empty()))
    throw_invalid(std::string(op) + ": " + name + " holds " + std::to_string(offsets.size()) +
                  " entries, expected n + 1 = " + std::to_string(n + 1));
}

// The counts of the messages and contexts of n items (the shape).
void check_messages(const char* op, const MlDsaPackedMessages& m, size_t n) {
  check_offsets(op, m.message_offsets, n, "message_offsets");
  if (m.external_mu) return;  // contexts are ignored
  if (m.context_offsets.empty()) {
    if (!m.contexts.empty())
      throw_invalid(std::string(op) + ": contexts holds " + std::to_string(m.contexts.size()) +
                    " bytes but there are no context_offsets");
    return;
  }
  check_offsets(op, m.context_offsets, n, "context_offsets");
}

// The buffers the device reads the messages and contexts from (the contexts not with external mu).
struct MessageRegions {
  pq::DeviceRegion msgs, msg_off, ctxs, ctx_off;
};
MessageRegions message_regions(const MlDsaPackedMessages& m) {
  const bool ctx = !m.external_mu;
  return {
      {m.messages.data(), m.messages.size(), "messages", false},
      {m.message_offsets.data(), m.message_offsets.size_bytes(), "message_offsets", false, sizeof(uint64_t)},
      {m.contexts.data(), ctx ? m.contexts.size() : 0, "contexts", false},
      {m.context_offsets.data(), ctx ? m.context_offsets.size_bytes() : 0, "context_offsets", false, sizeof(uint64_t)}};
}

}  // namespace

void mldsa_keygen_batch_device(MlDsaSet set, const uint8_t* seeds, uint8_t* pk, uint8_t* sk, size_t n, GpuStream stream,
                               const PqBatchOptions& options) {
  const MlDsaSizes sz = mldsa_sizes(set);
  pq::check_keygen_device("mldsa_keygen_batch_device", options, n, seeds, MlDsaSizes::seed, {pk, sz.pk, "pk", true},
                          {sk, sz.sk, "sk", true}, 1);
  if (n == 0) return;
#if ZKGPU_HAVE_CUDA
  cuda::mldsa_keygen_device(pq::mldsa_level(set), n, seeds, pk, sk, stream.handle, pq::gpu_options(options));
#else
  (void)stream;
#endif
}

void mldsa_sign_batch_device(MlDsaSet set, const MlDsaPackedSignBatch& on_device, uint8_t* signatures, PqStatus* status,
                             GpuStream stream, const PqBatchOptions& options) {
  const char* op = "mldsa_sign_batch_device";
  const MlDsaSizes sz = mldsa_sizes(set);
  const size_t n = items_of(op, on_device.secret_keys, sz.sk, "secret_keys");
  check_messages(op, on_device.messages, n);
  if (!on_device.rnds.empty() && on_device.rnds.size() != n * MlDsaSizes::rnd)
    throw_invalid(std::string(op) + ": rnds holds " + std::to_string(on_device.rnds.size()) + " bytes, expected " +
                  std::to_string(n) + " x 32 (or none: deterministic)");
  const MessageRegions mr = message_regions(on_device.messages);
  pq::check_device_call(op, options, n,
                        {{on_device.secret_keys.data(), on_device.secret_keys.size(), "secret_keys", false},
                         {on_device.rnds.data(), on_device.rnds.size(), "rnds", false},
                         mr.msgs,
                         mr.msg_off,
                         mr.ctxs,
                         mr.ctx_off,
                         {signatures, pq::device_bytes(op, n, sz.sig, "signatures"), "signatures", true},
                         {status, n, "status", true}});
  if (n == 0) return;
#if ZKGPU_HAVE_CUDA
  cuda::mldsa_sign_device(pq::mldsa_level(set), on_device, signatures, reinterpret_cast<uint8_t*>(status),
                          stream.handle, pq::gpu_options(options));
#else
  (void)stream;
#endif
}

void mldsa_verify_batch_device(MlDsaSet set, const MlDsaPackedVerifyBatch& on_device, uint8_t* verdicts,
                               GpuStream stream, const PqBatchOptions& options) {
  const char* op = "mldsa_verify_batch_device";
  const MlDsaSizes sz = mldsa_sizes(set);
  const size_t n = items_of(op, on_device.public_keys, sz.pk, "public_keys");
  if (on_device.signatures.size() != n * sz.sig)
    throw_invalid(std::string(op) + ": signatures holds " + std::to_string(on_device.signatures.size()) +
                  " bytes, expected " + std::to_string(n) + " x " + std::to_string(sz.sig));
  check_messages(op, on_device.messages, n);
  const MessageRegions mr = message_regions(on_device.messages);
  pq::check_device_call(op, options, n,
                        {{on_device.public_keys.data(), on_device.public_keys.size(), "public_keys", false},
                         {on_device.signatures.data(), on_device.signatures.size(), "signatures", false},
                         mr.msgs,
                         mr.msg_off,
                         mr.ctxs,
                         mr.ctx_off,
                         {verdicts, n, "verdicts", true}});
  if (n == 0) return;
#if ZKGPU_HAVE_CUDA
  cuda::mldsa_verify_device(pq::mldsa_level(set), on_device, verdicts, stream.handle, pq::gpu_options(options));
#else
  (void)stream;
#endif
}

}  // namespace zkgpu

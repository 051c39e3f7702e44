// Helpers of the ML-KEM / ML-DSA device-call GPU tests: byte buffers on the device on a test's
// stream, packed messages with their offsets, and the checks every device call shares.
#pragma once
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "runtime/cuda/runtime.cuh"
#include "support/test_support.hpp"
#include "zkgpu/mldsa.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu::test {

using Bytes = std::vector<uint8_t>;

// A suite over the parameter sets whose tests run on a caller's non-blocking stream, created once
// the GPU check has passed (every test skips without a usable GPU).
class DeviceStreamTest : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    ZKGPU_REQUIRE_GPU();
    stream_.emplace();
  }
  const cuda::Stream& stream() const { return *stream_; }
  GpuStream gs() const { return GpuStream{stream_->get()}; }

 private:
  std::optional<cuda::Stream> stream_;
};

// Elements on the device, uploaded or poisoned on the stream; read() waits for the stream.
template <class T = uint8_t>
struct Dev {
  cuda::DeviceBuffer<T> buf;
  Dev(const std::vector<T>& v, cudaStream_t s) : buf(v.size()) {
    if (!v.empty()) buf.upload(v.data(), v.size(), s);
  }
  Dev(size_t n, uint8_t poison, cudaStream_t s) : buf(n) {
    if (n) ZKGPU_CUDA_CHECK(cudaMemsetAsync(buf.data(), poison, n * sizeof(T), s));
  }
  T* p() const { return buf.data(); }
  std::span<const T> span() const { return {buf.data(), buf.size()}; }
  std::vector<T> read(const cuda::Stream& s) const {
    std::vector<T> out(buf.size());
    if (!out.empty()) buf.download(out.data(), out.size(), s);
    s.sync();
    return out;
  }
};

// Byte strings back to back with n + 1 offsets (the layout of MlDsaPackedMessages).
struct Packed {
  Bytes bytes;
  std::vector<uint64_t> offsets{0};
  explicit Packed(const std::vector<Bytes>& items) {
    for (const Bytes& b : items) {
      bytes.insert(bytes.end(), b.begin(), b.end());
      offsets.push_back(bytes.size());
    }
  }
};

// The packed messages and contexts of a batch, on the device.
struct DevMessages {
  Dev<> msgs, ctxs;
  Dev<uint64_t> msg_off, ctx_off;
  DevMessages(const Packed& m, const Packed* c, cudaStream_t s)
      : msgs(m.bytes, s),
        ctxs(c ? c->bytes : Bytes{}, s),
        msg_off(m.offsets, s),
        ctx_off(c ? c->offsets : std::vector<uint64_t>{}, s) {}
  MlDsaPackedMessages view(bool external_mu = false) const {
    return {msgs.span(), msg_off.span(), ctxs.span(), ctx_off.span(), external_mu};
  }
};

// The error code of call(), which must throw.
inline ErrorCode error_code(const std::function<void()>& call, const char* what) {
  try {
    call();
  } catch (const Error& e) {
    return e.code();
  }
  ADD_FAILURE() << what << " was accepted";
  return ErrorCode::CudaError;
}
#define EXPECT_INVALID(call, what) \
  EXPECT_EQ(::zkgpu::test::error_code([&] { call; }, what), ::zkgpu::ErrorCode::InvalidArgument) << what

// How many chunks a device call ran: the phase each chunk ends with, counted.
inline size_t phase_count(const PhaseTimes& t, const std::string& name) {
  size_t c = 0;
  for (const auto& p : t.phases) c += p.first == name;
  return c;
}

// The first item whose `size` bytes differ between a and b, or -1.
inline long first_bad_item(const Bytes& a, const Bytes& b, size_t size) {
  if (a.size() != b.size()) return -2;
  for (size_t i = 0; i * size < a.size(); ++i)
    if (!std::equal(a.begin() + i * size, a.begin() + (i + 1) * size, b.begin() + i * size)) return long(i);
  return -1;
}

}  // namespace zkgpu::test

// The C ABI's plumbing (capi.hpp) and its runtime entry points: version, last error, status
// names, GPU availability and the GPU caches.
#include "capi/capi.hpp"

#include <cstdio>
#include <cstring>

#include "zkgpu/version.hpp"

namespace zkgpu::capi {

namespace {
// One message per thread, so concurrent callers never see each other's errors (docs/c-api.md).
thread_local std::string last_error;
}  // namespace

void clear_error() noexcept { last_error.clear(); }

zkgpu_status fail(zkgpu_status status, const char* msg) noexcept {
  try {
    last_error = msg;
  } catch (...) {
    // No memory for the message: a literal short enough for the small-string buffer, which
    // needs no allocation.
    last_error.clear();
    last_error = "out of memory";
  }
  return status;
}

zkgpu_status status_of(ErrorCode code) noexcept {
  switch (code) {
    case ErrorCode::InvalidArgument: return ZKGPU_INVALID_ARGUMENT;
    case ErrorCode::OutOfMemory: return ZKGPU_OUT_OF_MEMORY;
    case ErrorCode::CudaError: return ZKGPU_CUDA_ERROR;
    case ErrorCode::Unavailable: return ZKGPU_UNAVAILABLE;
  }
  return ZKGPU_INTERNAL;
}

void require(const void* ptr, size_t count, const char* what) {
  if (ptr == nullptr && count > 0)
    throw_invalid(std::string(what) + " is NULL but " + std::to_string(count) + " item(s) are to be accessed");
}

void require(const void* ptr, const char* what) {
  if (ptr == nullptr) throw_invalid(std::string(what) + " is NULL");
}

size_t checked_mul(size_t a, size_t b, const char* what) {
  if (b != 0 && a > SIZE_MAX / b)
    throw_invalid(std::string(what) + ": " + std::to_string(a) + " * " + std::to_string(b) + " overflows size_t");
  return a * b;
}

void require_disjoint(const void* a, size_t a_bytes, const char* a_name, const void* b, size_t b_bytes,
                      const char* b_name) {
  if (a == nullptr || b == nullptr || a_bytes == 0 || b_bytes == 0) return;
  const auto pa = reinterpret_cast<uintptr_t>(a), pb = reinterpret_cast<uintptr_t>(b);
  if (pa < pb + b_bytes && pb < pa + a_bytes)
    throw_invalid(std::string(a_name) + " overlaps " + b_name + " (the call reads one while writing the other)");
}

void require_no_aliasing(std::initializer_list<Region> regions) {
  for (auto a = regions.begin(); a != regions.end(); ++a)
    for (auto b = a + 1; b != regions.end(); ++b)
      if (a->written || b->written) require_disjoint(a->ptr, a->bytes, a->name, b->ptr, b->bytes, b->name);
}

bool flag_of(long long v, const char* what) {
  if (v != 0 && v != 1) throw_invalid(std::string(what) + " is " + std::to_string(v) + ", not 0 or 1");
  return v == 1;
}

Backend backend_of(const zkgpu_backend& b) {
  static_assert(ZKGPU_BACKEND_AUTO == 0 && ZKGPU_BACKEND_CPU == 1 && ZKGPU_BACKEND_CUDA == 2);
  constexpr Backend values[] = {Backend::Auto, Backend::Cpu, Backend::Cuda};
  return enum_of(b, values, "backend", "zkgpu_backend", "0 AUTO, 1 CPU, 2 CUDA");
}

std::string quoted(std::string_view s) {
  constexpr size_t MAX_SHOWN = 64;
  std::string out = "\"";
  for (size_t i = 0; i < s.size() && i < MAX_SHOWN; ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
      out += static_cast<char>(c);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    }
  }
  out += s.size() > MAX_SHOWN ? "\"..." : "\"";
  return out;
}

Poseidon2Constants constants_of(const char* name) {
  require(name, "constants");
  Poseidon2Constants c;
  if (!parse_poseidon2_constants(name, c))
    throw_invalid("unknown Poseidon2 constant set " + quoted(name) + " (\"plonky3\" or \"whir\")");
  return c;
}

void require_babybear(const char* field) {
  require(field, "field");
  if (std::strcmp(field, "babybear") != 0) throw_invalid("unknown field " + quoted(field) + " (\"babybear\")");
}

}  // namespace zkgpu::capi

using namespace zkgpu;

extern "C" {

const char* zkgpu_version(void) { return zkgpu::version(); }

const char* zkgpu_last_error(void) { return capi::last_error.c_str(); }

const char* zkgpu_status_name(zkgpu_status status) {
  switch (capi::raw_enum(status)) {
    case ZKGPU_OK: return "ZKGPU_OK";
    case ZKGPU_INVALID_ARGUMENT: return "ZKGPU_INVALID_ARGUMENT";
    case ZKGPU_OUT_OF_MEMORY: return "ZKGPU_OUT_OF_MEMORY";
    case ZKGPU_UNAVAILABLE: return "ZKGPU_UNAVAILABLE";
    case ZKGPU_CUDA_ERROR: return "ZKGPU_CUDA_ERROR";
    case ZKGPU_INTERNAL: return "ZKGPU_INTERNAL";
  }
  return "unknown zkgpu_status";
}

int zkgpu_cuda_usable(void) {
  try {
    return cuda_usable() ? 1 : 0;
  } catch (...) {
    return 0;  // a device query that fails is no usable GPU
  }
}

zkgpu_status zkgpu_release_gpu_caches(void) {
  return capi::guarded([] { release_gpu_caches(); });
}

}  // extern "C"

// Shared by the C ABI's files (include/zkgpu.h, docs/c-api.md): the thread-local last error, the
// guard that turns every C++ exception into a zkgpu_status, and the argument checks every entry
// point makes before it touches a buffer.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <initializer_list>
#include <new>
#include <string>
#include <string_view>
#include <type_traits>

#include "zkgpu.h"
#include "zkgpu/backend.hpp"
#include "zkgpu/core/poseidon2/params.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu::capi {

// The integer a caller passed for an enum argument, read without loading the enum: a C caller may
// pass any int, and in C++ loading a value outside the enum's range is undefined (UBSan's enum
// check). Validators take their enum by reference and switch on this.
template <class E>
long long raw_enum(const E& e) {
  std::underlying_type_t<E> v;
  std::memcpy(&v, &e, sizeof v);
  return static_cast<long long>(v);
}

// The C++ value for a C enum whose constants count 0, 1, ... in the order of `values`; any other
// value (a cast integer) is Error(InvalidArgument) "<what> <v> is not a <c_name> (<choices>)".
template <class C, class E, size_t N>
E enum_of(const C& c, const E (&values)[N], const char* what, const char* c_name, const char* choices) {
  const long long v = raw_enum(c);
  if (v >= 0 && v < static_cast<long long>(N)) return values[v];
  throw_invalid(std::string(what) + " " + std::to_string(v) + " is not a " + c_name + " (" + choices + ")");
}

void clear_error() noexcept;
// Records msg as this thread's last error and returns status; never throws (a message that cannot
// be stored is replaced by a fixed one).
zkgpu_status fail(zkgpu_status status, const char* msg) noexcept;
zkgpu_status status_of(ErrorCode code) noexcept;

// Runs f, which reports bad input by throwing zkgpu::Error: the C ABI's one exception boundary.
template <class F>
zkgpu_status guarded(F&& f) noexcept {
  clear_error();
  try {
    f();
    return ZKGPU_OK;
  } catch (const Error& e) {
    return fail(status_of(e.code()), e.what());
  } catch (const std::bad_alloc&) {
    return fail(ZKGPU_OUT_OF_MEMORY, "out of host memory");
  } catch (const std::exception& e) {
    const std::string msg = std::string("internal error (please report it): ") + e.what();
    return fail(ZKGPU_INTERNAL, msg.c_str());
  } catch (...) {
    return fail(ZKGPU_INTERNAL, "internal error (please report it): an exception that is not std::exception");
  }
}

// A NULL `what` where `count` items are to be read or written is an error; with count 0 any
// pointer is accepted (and never dereferenced).
void require(const void* ptr, size_t count, const char* what);
// Handles and single out-parameters: never NULL.
void require(const void* ptr, const char* what);
// a * b, or Error(InvalidArgument) naming what when it overflows size_t.
size_t checked_mul(size_t a, size_t b, const char* what);
// Error(InvalidArgument) when [a, a + a_bytes) and [b, b + b_bytes) share a byte.
void require_disjoint(const void* a, size_t a_bytes, const char* a_name, const void* b, size_t b_bytes,
                      const char* b_name);
// A buffer of a call, for require_no_aliasing.
struct Region {
  const void* ptr;
  size_t bytes;
  const char* name;
  bool written;
};
// Every written region is disjoint from every other region (in-place buffers are one region).
void require_no_aliasing(std::initializer_list<Region> regions);
// 0 or 1, the C ABI's booleans.
bool flag_of(long long v, const char* what);

Backend backend_of(const zkgpu_backend& b);
// The constant-set name ("plonky3" | "whir"); the message quotes the bytes it got, escaped.
Poseidon2Constants constants_of(const char* name);
// "babybear", the only field.
void require_babybear(const char* field);
// A caller's byte string as printable ASCII (\xNN for anything else), at most 64 bytes of it.
std::string quoted(std::string_view s);

}  // namespace zkgpu::capi

// The C ABI's NTT and LDE over BabyBear (include/zkgpu.h), over include/zkgpu/ntt.hpp.
#include <string>

#include "capi/babybear.hpp"
#include "capi/capi.hpp"
#include "zkgpu/ntt.hpp"

namespace zkgpu::capi {
namespace {

NttDirection direction_of(const zkgpu_ntt_direction& d) {
  static_assert(ZKGPU_NTT_FORWARD == 0 && ZKGPU_NTT_INVERSE == 1);
  constexpr NttDirection values[] = {NttDirection::Forward, NttDirection::Inverse};
  return enum_of(d, values, "direction", "zkgpu_ntt_direction", "0 FORWARD, 1 INVERSE");
}

// The element count of a (2^log_n) x cols matrix, after the checks ntt.hpp documents (made here
// so that they come before the caller's buffer is converted in place).
size_t matrix_elems(unsigned log_n, size_t cols, const char* what) {
  if (log_n > NTT_MAX_LOG_N)
    throw_invalid(std::string(what) + ": 2^" + std::to_string(log_n) + " rows exceed BabyBear's two-adic subgroup (2^" +
                  std::to_string(NTT_MAX_LOG_N) + ")");
  if (cols == 0) throw_invalid(std::string(what) + ": cols is 0");
  return checked_mul(size_t{1} << log_n, cols, what);
}

BabyBear nonzero_shift(uint32_t shift, Repr r) {
  const BabyBear s = field_arg(shift, r, "shift");
  if (s == BabyBear::zero()) throw_invalid("shift is 0 (a coset shift must be nonzero)");
  return s;
}

using LdeFn = std::vector<BabyBear> (*)(std::span<const BabyBear>, unsigned, size_t, unsigned, BabyBear, Backend);

zkgpu_status lde(LdeFn fn, const uint32_t* in, const char* in_name, unsigned log_n, size_t cols, unsigned log_blowup,
                 uint32_t shift, const zkgpu_babybear_repr& repr, const zkgpu_backend& backend, uint32_t* out) {
  return guarded([&] {
    const Backend b = backend_of(backend);
    const Repr r = repr_of(repr);
    const size_t in_elems = matrix_elems(log_n, cols, in_name);
    if (log_blowup > NTT_MAX_LOG_N - log_n)
      throw_invalid("log_n + log_blowup = " + std::to_string(uint64_t{log_n} + log_blowup) +
                    " exceeds BabyBear's two-adicity " + std::to_string(NTT_MAX_LOG_N));
    const size_t out_elems = matrix_elems(log_n + log_blowup, cols, "out");
    require(in, in_elems, in_name);
    require(out, out_elems, "out");
    require_disjoint(in, in_elems * 4, in_name, out, out_elems * 4, "out");
    const BabyBear s = nonzero_shift(shift, r);
    const FieldInput input(in, in_elems, r, in_name);
    write_words(fn(input.span(), log_n, cols, log_blowup, s, b), out, r);
  });
}

}  // namespace
}  // namespace zkgpu::capi

using namespace zkgpu;
using namespace zkgpu::capi;

extern "C" {

zkgpu_status zkgpu_ntt(uint32_t* matrix, unsigned log_n, size_t cols, zkgpu_ntt_direction direction, uint32_t shift,
                       zkgpu_babybear_repr repr, zkgpu_backend backend) {
  return guarded([&] {
    const Backend b = backend_of(backend);
    const Repr r = repr_of(repr);
    const NttDirection dir = direction_of(direction);
    const size_t elems = matrix_elems(log_n, cols, "matrix");
    require(matrix, elems, "matrix");
    const BabyBear s = nonzero_shift(shift, r);
    FieldInPlace m(matrix, elems, r, "matrix");
    ntt(m.span(), log_n, cols, dir, s, b);
    m.close();
  });
}

zkgpu_status zkgpu_coset_lde(const uint32_t* evals, unsigned log_n, size_t cols, unsigned log_blowup, uint32_t shift,
                             zkgpu_babybear_repr repr, zkgpu_backend backend, uint32_t* out) {
  return lde(&coset_lde, evals, "evals", log_n, cols, log_blowup, shift, repr, backend, out);
}

zkgpu_status zkgpu_lde_from_coeffs(const uint32_t* coeffs, unsigned log_n, size_t cols, unsigned log_blowup,
                                   uint32_t shift, zkgpu_babybear_repr repr, zkgpu_backend backend, uint32_t* out) {
  return lde(&lde_from_coeffs, coeffs, "coeffs", log_n, cols, log_blowup, shift, repr, backend, out);
}

// Device buffers hold Montgomery words; ntt_device and the LDEs check the shape and the buffers.
zkgpu_status zkgpu_ntt_device(uint32_t* d_matrix, unsigned log_n, size_t cols, zkgpu_ntt_direction direction,
                              uint32_t shift, void* stream) {
  return guarded([&] {
    const NttDirection dir = direction_of(direction);
    ntt_device(reinterpret_cast<BabyBear*>(d_matrix), log_n, cols, dir, nonzero_shift(shift, Repr::Montgomery),
               GpuStream{stream});
  });
}

zkgpu_status zkgpu_coset_lde_device(const uint32_t* d_evals, unsigned log_n, size_t cols, unsigned log_blowup,
                                    uint32_t shift, uint32_t* d_out, void* stream) {
  return guarded([&] {
    coset_lde_device(reinterpret_cast<const BabyBear*>(d_evals), log_n, cols, log_blowup,
                     nonzero_shift(shift, Repr::Montgomery), reinterpret_cast<BabyBear*>(d_out), GpuStream{stream});
  });
}

zkgpu_status zkgpu_lde_from_coeffs_device(const uint32_t* d_coeffs, unsigned log_n, size_t cols, unsigned log_blowup,
                                          uint32_t shift, uint32_t* d_out, void* stream) {
  return guarded([&] {
    lde_from_coeffs_device(reinterpret_cast<const BabyBear*>(d_coeffs), log_n, cols, log_blowup,
                           nonzero_shift(shift, Repr::Montgomery), reinterpret_cast<BabyBear*>(d_out),
                           GpuStream{stream});
  });
}

}  // extern "C"

// BabyBear NTT, inverse NTT and low-degree extensions (zkgpu/ntt.hpp) over canonical uint32
// arrays, plus the Montgomery conversions for buffers handed to the device-pointer calls. The
// output array is allocated by the Python layer; the transform runs in it.
#include <string>

#include "common.hpp"
#include "zkgpu/ntt.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu::python {

namespace {

void require_size(size_t have, uint64_t want, const char* what) {
  if (have != want)
    throw_invalid(std::string(what) + " holds " + std::to_string(have) + " words, the shape needs " +
                  std::to_string(want));
}

void ntt_into(U32In values, U32Out out, unsigned log_n, size_t cols, bool inverse, uint64_t shift,
              std::string_view backend) {
  const Backend b = backend_arg(backend);
  const BabyBear s = field_arg(shift, "shift");
  if (log_n > NTT_MAX_LOG_N) throw_invalid("2^" + std::to_string(log_n) + " rows exceed BabyBear's 2^27 subgroup");
  require_size(values.size(), uint64_t(cols) << log_n, "values");
  require_size(out.size(), values.size(), "out");
  nb::gil_scoped_release unlocked;
  auto* m = reinterpret_cast<BabyBear*>(out.data());
  load_canonical(span_of(values), m, "values");
  const std::span<BabyBear> matrix(m, out.size());
  ntt(matrix, log_n, cols, inverse ? NttDirection::Inverse : NttDirection::Forward, s, b);
  store_canonical(matrix, out.data());
}

// coset_lde and lde_from_coeffs share their signature, checks and conversions.
using LdeFn = std::vector<BabyBear> (*)(std::span<const BabyBear>, unsigned, size_t, unsigned, BabyBear, Backend);

void lde_into(LdeFn fn, U32In input, U32Out out, unsigned log_n, size_t cols, unsigned log_blowup, uint64_t shift,
              std::string_view backend) {
  const Backend b = backend_arg(backend);
  const BabyBear s = field_arg(shift, "shift");
  if (log_n + log_blowup > NTT_MAX_LOG_N)
    throw_invalid("log_n + log_blowup = " + std::to_string(log_n + log_blowup) + " exceeds BabyBear's two-adicity 27");
  require_size(input.size(), uint64_t(cols) << log_n, "input");
  require_size(out.size(), uint64_t(cols) << (log_n + log_blowup), "out");
  nb::gil_scoped_release unlocked;
  const std::vector<BabyBear> in = load_canonical(span_of(input), "input");
  const std::vector<BabyBear> r = fn(in, log_n, cols, log_blowup, s, b);
  store_canonical(r, out.data());
}

void def_lde(nb::module_& m, const char* name, LdeFn fn, const char* input) {
  m.def(
      name,
      [fn](U32In in, U32Out out, unsigned log_n, size_t cols, unsigned log_blowup, uint64_t shift,
           std::string_view backend) { lde_into(fn, in, out, log_n, cols, log_blowup, shift, backend); },
      nb::arg(input).noconvert(), nb::arg("out").noconvert(), nb::arg("log_n"), nb::arg("cols"), nb::arg("log_blowup"),
      nb::arg("shift"), nb::arg("backend"));
}

}  // namespace

void bind_ntt(nb::module_& m) {
  m.def("ntt_into", &ntt_into, nb::arg("values").noconvert(), nb::arg("out").noconvert(), nb::arg("log_n"),
        nb::arg("cols"), nb::arg("inverse"), nb::arg("shift"), nb::arg("backend"));
  def_lde(m, "coset_lde_into", static_cast<LdeFn>(&coset_lde), "evals");
  def_lde(m, "lde_from_coeffs_into", static_cast<LdeFn>(&lde_from_coeffs), "coeffs");
  m.def(
      "to_montgomery_into",
      [](U32In in, U32Out out) {
        require_size(out.size(), in.size(), "out");
        nb::gil_scoped_release unlocked;
        load_canonical(span_of(in), reinterpret_cast<BabyBear*>(out.data()), "values");
      },
      nb::arg("values").noconvert(), nb::arg("out").noconvert());
  m.def(
      "from_montgomery_into",
      [](U32In in, U32Out out) {
        require_size(out.size(), in.size(), "out");
        nb::gil_scoped_release unlocked;
        const std::span<const uint32_t> w = span_of(in);
        for (size_t i = 0; i < w.size(); ++i)
          if (w[i] >= BabyBear::P)
            throw_invalid("words[" + std::to_string(i) + "] = " + std::to_string(w[i]) +
                          " is not a Montgomery BabyBear word (must be < p = 2013265921)");
        for (size_t i = 0; i < w.size(); ++i) out.data()[i] = BabyBear::from_monty(w[i]).canonical();
      },
      nb::arg("words").noconvert(), nb::arg("out").noconvert());
}

}  // namespace zkgpu::python

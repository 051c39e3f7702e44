// WHIR (zkgpu/whir.hpp) through the C ABI's WHIR calls (include/zkgpu.h), which already hold the
// proof-file handling a binding needs: the proof as the bytes of docs/whir-proof-format.md, its
// root, and verification of those bytes against the verifier's own parameters, claims and root.
// Parameters come from a zkgpu.WhirParams object; claims are canonical words.
#include <nanobind/stl/string.h>

#include <cstring>
#include <memory>
#include <string>

#include "common.hpp"
#include "zkgpu.h"
#include "zkgpu/status.hpp"
#include "zkgpu/whir.hpp"

namespace zkgpu::python {

namespace {

template <class T>
T attr(nb::handle o, const char* name) {
  return nb::cast<T>(o.attr(name));
}

zkgpu_whir_params params_of(nb::handle p) {
  zkgpu_whir_params c{};
  check_capi(zkgpu_whir_params_init(&c, attr<uint32_t>(p, "num_variables")));
  c.security_level = attr<uint32_t>(p, "security_level");
  c.pow_bits = attr<uint32_t>(p, "pow_bits");
  c.folding_factor = attr<uint32_t>(p, "folding_factor");
  const nb::object first = p.attr("first_folding_factor");
  c.folding_from_second_round = first.is_none() ? 0 : 1;
  c.first_folding_factor = first.is_none() ? c.folding_factor : nb::cast<uint32_t>(first);
  const auto s = whir::parse_soundness(attr<std::string>(p, "soundness"));
  if (!s) throw_invalid("soundness \"" + attr<std::string>(p, "soundness") + "\" is not one of \"ud\", \"jb\", \"cb\"");
  c.soundness = static_cast<zkgpu_whir_soundness>(*s);
  c.starting_log_inv_rate = attr<uint32_t>(p, "starting_log_inv_rate");
  const nb::object rs = p.attr("rs_reduction");
  c.rs_reduction = rs.is_none() ? -1 : nb::cast<int32_t>(rs);
  c.enforce_pow_budget = attr<bool>(p, "enforce_pow_budget") ? 1 : 0;
  return c;
}

nb::dict derive(nb::handle params) {
  const zkgpu_whir_params p = params_of(params);
  zkgpu_whir_config c{};
  check_capi(zkgpu_whir_derive(&p, &c));
  uint64_t max_bytes = 0;
  check_capi(zkgpu_whir_max_proof_size(&p, 1, &max_bytes));
  nb::dict d;
  d["num_variables"] = c.num_variables;
  d["num_evaluations"] = c.num_evaluations;
  d["rs_reduction"] = c.rs_reduction;
  d["n_rounds"] = c.n_rounds;
  d["final_sumcheck_rounds"] = c.final_sumcheck_rounds;
  d["commitment_ood_samples"] = c.commitment_ood_samples;
  d["starting_folding_pow_bits"] = c.starting_folding_pow_bits;
  d["log_starting_domain"] = c.log_starting_domain;
  d["max_fft_log_size"] = c.max_fft_log_size;
  d["final_num_queries"] = c.final_num_queries;
  d["max_derived_pow_bits"] = c.max_derived_pow_bits;
  d["pow_budget_exceeded"] = c.pow_budget_exceeded != 0;
  d["max_proof_bytes_one_claim"] = max_bytes;
  return d;
}

struct ProofHandle {
  void operator()(zkgpu_whir_proof* p) const { zkgpu_whir_proof_free(p); }
};

nb::tuple prove(nb::handle params, U32In evals, U32In points, U32In values, size_t num_claims,
                std::string_view backend) {
  const zkgpu_whir_params p = params_of(params);
  const zkgpu_backend b = capi_backend(backend);
  std::unique_ptr<zkgpu_whir_proof, ProofHandle> proof;
  std::vector<uint8_t> bytes;
  std::vector<uint32_t> root(ZKGPU_DIGEST_WORDS);
  {
    nb::gil_scoped_release unlocked;
    zkgpu_whir_proof* raw = nullptr;
    check_capi(zkgpu_whir_prove(&p, evals.data(), evals.size(), points.data(), values.data(), num_claims,
                                ZKGPU_BABYBEAR_CANONICAL, b, &raw));
    proof.reset(raw);
    size_t n = 0;
    check_capi(zkgpu_whir_proof_size(proof.get(), &n));
    bytes.resize(n);
    check_capi(zkgpu_whir_proof_write(proof.get(), bytes.data(), n));
    check_capi(zkgpu_whir_proof_root(proof.get(), ZKGPU_BABYBEAR_CANONICAL, root.data()));
  }
  return nb::make_tuple(nb::bytes(reinterpret_cast<const char*>(bytes.data()), bytes.size()),
                        to_numpy(std::move(root), {size_t(ZKGPU_DIGEST_WORDS)}));
}

nb::tuple verify(nb::handle params, U32In points, U32In values, size_t num_claims, nb::object expected_root,
                 nb::bytes proof) {
  const zkgpu_whir_params p = params_of(params);
  const uint32_t* root = nullptr;
  U32In root_arr;
  if (!expected_root.is_none()) {
    root_arr = nb::cast<U32In>(expected_root, false);
    if (root_arr.size() != ZKGPU_DIGEST_WORDS) throw_invalid("expected_root must be 8 words");
    root = root_arr.data();
  }
  uint8_t accepted = 0;
  std::string reason(512, '\0');
  {
    nb::gil_scoped_release unlocked;
    check_capi(zkgpu_whir_verify(&p, points.data(), values.data(), num_claims, root, ZKGPU_BABYBEAR_CANONICAL,
                                 static_cast<const uint8_t*>(proof.data()), proof.size(), &accepted, reason.data(),
                                 reason.size()));
  }
  reason.resize(std::strlen(reason.c_str()));
  return nb::make_tuple(accepted != 0, reason);
}

nb::ndarray<nb::numpy, uint32_t> evaluate(U32In evals, U32In point) {
  const std::vector<BabyBear> t = load_canonical(span_of(evals), "evals");
  const std::vector<BabyBear4> x = load_canonical_ext(span_of(point), "point");
  if (t.size() != (size_t(1) << x.size()))
    throw_invalid("a point of " + std::to_string(x.size()) + " coordinates needs 2^" + std::to_string(x.size()) +
                  " evaluations, not " + std::to_string(t.size()));
  BabyBear4 v;
  {
    nb::gil_scoped_release unlocked;
    v = whir::evaluate_multilinear(std::span<const BabyBear>(t), std::span<const BabyBear4>(x));
  }
  std::vector<uint32_t> w(4);
  store_canonical(v.c, w.data());
  return to_numpy(std::move(w), {4});
}

}  // namespace

void bind_whir(nb::module_& m) {
  m.def("whir_derive", &derive, nb::arg("params"));
  m.def("whir_prove", &prove, nb::arg("params"), nb::arg("evals").noconvert(), nb::arg("points").noconvert(),
        nb::arg("values").noconvert(), nb::arg("num_claims"), nb::arg("backend"));
  m.def("whir_verify", &verify, nb::arg("params"), nb::arg("points").noconvert(), nb::arg("values").noconvert(),
        nb::arg("num_claims"), nb::arg("expected_root").none(), nb::arg("proof"));
  m.def("evaluate_multilinear", &evaluate, nb::arg("evals").noconvert(), nb::arg("point").noconvert());
}

}  // namespace zkgpu::python

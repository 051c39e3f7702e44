// The soundness formulas of p3-whir parameters/soundness.rs and whir.rs (spec §2.1), in the same
// float operations (libm log2/pow/sqrt), so ceil and floor land where 090b's do.
#pragma once
#include <cstddef>

#include "zkgpu/whir.hpp"

namespace zkgpu::whir::formulas {

// core::f64::consts::LOG2_10
inline constexpr double LOG2_10 = 3.32192809488736234787031942948939018;

double log_eta(Soundness s, unsigned log_inv_rate);
double list_size_bits(Soundness s, unsigned log_degree, unsigned log_inv_rate);
double prox_gaps_error(Soundness s, unsigned log_degree, unsigned log_inv_rate, unsigned field_bits,
                       unsigned num_functions = 2);
double log_1_delta(Soundness s, unsigned log_inv_rate);
size_t queries(Soundness s, unsigned security_bits, unsigned log_inv_rate);
double queries_error(Soundness s, unsigned log_inv_rate, size_t num_queries);
double ood_error(Soundness s, unsigned log_degree, unsigned log_inv_rate, unsigned field_bits, size_t ood_samples);
// Error(InvalidArgument) when no s in 1..63 reaches the security level (090b panics).
size_t ood_samples(Soundness s, unsigned security_level, unsigned log_degree, unsigned log_inv_rate,
                   unsigned field_bits);
double fold_sumcheck_error(Soundness s, unsigned log_degree, unsigned log_inv_rate, unsigned field_bits);
double folding_pow_bits(Soundness s, unsigned security_level, unsigned log_degree, unsigned log_inv_rate,
                        unsigned field_bits);
double queries_combination_error(Soundness s, unsigned log_degree, unsigned log_inv_rate, size_t ood,
                                 size_t num_queries, unsigned field_bits);

}  // namespace zkgpu::whir::formulas

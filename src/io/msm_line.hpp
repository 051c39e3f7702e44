// Strict parsing of `zkgpu msm run` input lines (in the library so tests and the fuzz target reach it): "x:y:s" (affine
// short-Weierstrass coordinates and the scalar, big-endian hex of any width, 0x optional) or "infinity:s".
#pragma once
#include <string>
#include <string_view>

#include "zkgpu/core/bls12_377/curve.hpp"

namespace zkgpu::bls12_377 {

// Checks the syntax, coordinates < p and the curve equation; the (costlier) subgroup check is the
// caller's, so it can run in parallel over all lines. Returns false with a reason in err.
bool parse_msm_line(std::string_view line, G1Affine& point, Scalar& scalar, std::string& err);

}  // namespace zkgpu::bls12_377

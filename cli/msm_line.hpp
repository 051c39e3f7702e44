// Strict parsing of `zkgpu msm run` input lines: "x:y:s" (affine short-Weierstrass coordinates
// and the scalar, big-endian hex of any width, 0x optional) or "infinity:s".
#pragma once
#include <string>
#include <string_view>

#include "core/bls12_377/curve.hpp"

namespace zkgpu::cli {

// Checks the syntax, coordinates < p and the curve equation; the (costlier) subgroup check is the
// caller's, so it can run in parallel over all lines. Returns false with a reason in err.
bool parse_msm_line(std::string_view line, bls12_377::G1Affine& point, bls12_377::Scalar& scalar, std::string& err);

}  // namespace zkgpu::cli

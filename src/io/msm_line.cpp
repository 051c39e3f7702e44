#include "io/msm_line.hpp"

#include "zkgpu/bls12_377.hpp"

namespace zkgpu::bls12_377 {

namespace {
std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}
}  // namespace

bool parse_msm_line(std::string_view line, G1Affine& point, Scalar& scalar, std::string& err) {
  line = trim(line);
  std::string_view fields[3];
  size_t count = 0;
  while (true) {
    size_t colon = line.find(':');
    if (count == 3) {
      err = "expected x:y:s or infinity:s, found more than three fields";
      return false;
    }
    fields[count++] = trim(line.substr(0, colon));
    if (colon == std::string_view::npos) break;
    line.remove_prefix(colon + 1);
  }
  std::string why;
  if (fields[0] == "infinity" && count != 2) {
    err = "expected infinity:s for the identity";
    return false;
  }
  if (count == 2 && fields[0] == "infinity") {
    point = G1Affine::identity();
  } else if (count == 3) {
    Fp x, y;
    if (!parse_fp_hex(fields[0], x, why)) {
      err = "x: " + why;
      return false;
    }
    if (!parse_fp_hex(fields[1], y, why)) {
      err = "y: " + why;
      return false;
    }
    point = {x, y, false};
    if (!point.on_curve()) {
      err = "point is not on the curve y^2 = x^3 + 1";
      return false;
    }
  } else {
    err = "expected x:y:s or infinity:s";
    return false;
  }
  if (!parse_scalar_hex(fields[count - 1], scalar, why)) {
    err = "scalar: " + why;
    return false;
  }
  return true;
}

}  // namespace zkgpu::bls12_377

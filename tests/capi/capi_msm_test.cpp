// The C ABI's BLS12-377 MSM against the C++ API: results byte for byte in both encodings, the
// prepared bases' handle, and points or scalars that do not decode.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "bls12_377/bls_test_support.hpp"
#include "capi/capi_test_support.hpp"
#include "zkgpu/msm.hpp"

namespace zkgpu::test {
namespace {

using bls12_377::G1Affine;
using bls12_377::Scalar;

std::vector<uint8_t> encode(const std::vector<G1Affine>& pts, zkgpu_g1_encoding e) {
  std::vector<uint8_t> out;
  for (const G1Affine& p : pts) {
    if (e == ZKGPU_G1_COMPRESSED) {
      const auto b = bls12_377::serialize_compressed(p);
      out.insert(out.end(), b.begin(), b.end());
    } else {
      const auto b = bls12_377::serialize_uncompressed(p);
      out.insert(out.end(), b.begin(), b.end());
    }
  }
  return out;
}

std::vector<uint8_t> scalar_bytes(const std::vector<Scalar>& s) {
  std::vector<uint8_t> out(s.size() * 32);
  for (size_t i = 0; i < s.size(); ++i)
    for (int b = 0; b < 32; ++b) out[i * 32 + size_t(b)] = uint8_t(s[i].l[b / 8] >> (8 * (b % 8)));
  return out;
}

struct Inputs {
  std::vector<Scalar> dlogs, scalars;
  std::vector<G1Affine> points;
  explicit Inputs(size_t n, uint64_t salt) {
    Rng rng(salt);
    for (size_t i = 0; i < n; ++i) {
      dlogs.push_back(random_scalar(rng));
      scalars.push_back(random_scalar(rng));
    }
    points = points_with_dlogs(dlogs);
    points[n / 2] = G1Affine::identity();  // the identity is a valid base (discrete log 0)
    dlogs[n / 2] = Scalar{};
  }
};

TEST(CApiMsm, EqualsTheCxxApiInBothEncodings) {
  const Inputs in(300, 31);
  const G1Affine want = bls12_377::msm(in.points, in.scalars, {.backend = Backend::Cpu});
  const std::vector<uint8_t> s = scalar_bytes(in.scalars);
  for (auto e : {ZKGPU_G1_COMPRESSED, ZKGPU_G1_UNCOMPRESSED}) {
    const std::vector<uint8_t> pts = encode(in.points, e), want_bytes = encode({want}, e);
    std::vector<uint8_t> got(want_bytes.size());
    EXPECT_CAPI_OK(zkgpu_msm(pts.data(), s.data(), in.points.size(), e, ZKGPU_BACKEND_CPU, got.data()));
    EXPECT_EQ(got, want_bytes);
    zkgpu_msm_bases* bases = nullptr;
    ASSERT_TRUE(status_is(zkgpu_msm_bases_create(pts.data(), in.points.size(), e, &bases), ZKGPU_OK));
    std::fill(got.begin(), got.end(), 0);
    EXPECT_CAPI_OK(zkgpu_msm_with_bases(bases, s.data(), in.points.size(), e, ZKGPU_BACKEND_AUTO, got.data()));
    EXPECT_EQ(got, want_bytes);
    // The exported mixed-adder form is the C++ bases' own.
    const bls12_377::MsmBases cxx(in.points);
    std::vector<uint8_t> te(in.points.size() * ZKGPU_MSM_PRECOMPUTED_BYTES);
    EXPECT_CAPI_OK(zkgpu_msm_bases_export(bases, te.data(), te.size()));
    EXPECT_EQ(0, std::memcmp(te.data(), cxx.te_points().data(), te.size()));
    EXPECT_CAPI_ERR(zkgpu_msm_bases_export(bases, te.data(), te.size() - 1), ZKGPU_INVALID_ARGUMENT, "out_len");
    zkgpu_msm_bases_free(bases);
  }
  EXPECT_EQ(want, expected_msm(in.dlogs, in.scalars));
}

TEST(CApiMsm, PointsAndScalarsThatDoNotDecodeAreErrorsNamedByIndex) {
  const Inputs in(8, 32);
  std::vector<uint8_t> pts = encode(in.points, ZKGPU_G1_COMPRESSED), s = scalar_bytes(in.scalars),
                       out(ZKGPU_G1_UNCOMPRESSED_BYTES);
  zkgpu_msm_bases* bases = nullptr;
  pts[3 * 48 + 47] |= 0xc0;  // both flags: an undefined combination
  EXPECT_CAPI_ERR(zkgpu_msm(pts.data(), s.data(), 8, ZKGPU_G1_COMPRESSED, ZKGPU_BACKEND_CPU, out.data()),
                  ZKGPU_INVALID_ARGUMENT, "points[3]");
  EXPECT_CAPI_ERR(zkgpu_msm_bases_create(pts.data(), 8, ZKGPU_G1_COMPRESSED, &bases), ZKGPU_INVALID_ARGUMENT,
                  "points[3]");
  EXPECT_EQ(bases, nullptr);
  pts = encode(in.points, ZKGPU_G1_UNCOMPRESSED);
  pts[5 * 96] ^= 1;  // x changes: off the curve
  EXPECT_CAPI_ERR(zkgpu_msm(pts.data(), s.data(), 8, ZKGPU_G1_UNCOMPRESSED, ZKGPU_BACKEND_CPU, out.data()),
                  ZKGPU_INVALID_ARGUMENT, "points[5]");
  pts = encode(in.points, ZKGPU_G1_UNCOMPRESSED);
  const Scalar r = bls12_377::FrConfig::modulus();
  const std::vector<uint8_t> rb = scalar_bytes({r});
  std::copy(rb.begin(), rb.end(), s.begin() + 2 * 32);  // r itself is not below r
  EXPECT_CAPI_ERR(zkgpu_msm(pts.data(), s.data(), 8, ZKGPU_G1_UNCOMPRESSED, ZKGPU_BACKEND_CPU, out.data()),
                  ZKGPU_INVALID_ARGUMENT, "scalars[2]");
  EXPECT_CAPI_ERR(zkgpu_msm(pts.data(), s.data(), 8, (zkgpu_g1_encoding)2, ZKGPU_BACKEND_CPU, out.data()),
                  ZKGPU_INVALID_ARGUMENT, "encoding 2");
  EXPECT_CAPI_ERR(zkgpu_msm(pts.data(), nullptr, 8, ZKGPU_G1_UNCOMPRESSED, ZKGPU_BACKEND_CPU, out.data()),
                  ZKGPU_INVALID_ARGUMENT, "scalars");
  EXPECT_CAPI_ERR(zkgpu_msm(pts.data(), s.data(), 8, ZKGPU_G1_UNCOMPRESSED, ZKGPU_BACKEND_CPU, nullptr),
                  ZKGPU_INVALID_ARGUMENT, "result");
  EXPECT_CAPI_ERR(zkgpu_msm(pts.data(), s.data(), SIZE_MAX / 64, ZKGPU_G1_UNCOMPRESSED, ZKGPU_BACKEND_CPU, out.data()),
                  ZKGPU_INVALID_ARGUMENT, "overflows");
  EXPECT_CAPI_ERR(zkgpu_msm_with_bases(nullptr, s.data(), 8, ZKGPU_G1_COMPRESSED, ZKGPU_BACKEND_CPU, out.data()),
                  ZKGPU_INVALID_ARGUMENT, "bases");
  size_t n = 0;
  EXPECT_CAPI_ERR(zkgpu_msm_bases_size(nullptr, &n), ZKGPU_INVALID_ARGUMENT, "bases");
  zkgpu_msm_bases_free(nullptr);
}

}  // namespace
}  // namespace zkgpu::test

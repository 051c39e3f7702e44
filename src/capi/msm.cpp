// The C ABI's BLS12-377 G1 MSM (include/zkgpu.h), over include/zkgpu/msm.hpp: points in
// arkworks' encodings, scalars as 32-byte little-endian integers, bases as an opaque handle
// owning a zkgpu::bls12_377::MsmBases.
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "capi/capi.hpp"
#include "zkgpu/bls12_377.hpp"
#include "zkgpu/msm.hpp"

struct zkgpu_msm_bases {
  zkgpu::bls12_377::MsmBases bases;
  // MsmBases uploads itself lazily on its first GPU MSM, without a lock; a handle may be used by
  // several threads at once (docs/c-api.md), so the upload happens here, under this mutex, and
  // every call takes it before reading the device copy.
  mutable std::mutex upload;
};

using namespace zkgpu;
using namespace zkgpu::bls12_377;
using namespace zkgpu::capi;

namespace {

static_assert(sizeof(TePrecomputed) == ZKGPU_MSM_PRECOMPUTED_BYTES);
static_assert(sizeof(Scalar) == ZKGPU_SCALAR_BYTES);

size_t encoded_bytes(const zkgpu_g1_encoding& e) {
  static_assert(ZKGPU_G1_COMPRESSED == 0 && ZKGPU_G1_UNCOMPRESSED == 1);
  constexpr size_t values[] = {G1_COMPRESSED_BYTES, G1_UNCOMPRESSED_BYTES};
  return enum_of(e, values, "encoding", "zkgpu_g1_encoding", "0 COMPRESSED, 1 UNCOMPRESSED");
}

std::vector<G1Affine> read_points(const uint8_t* bytes, size_t n, const zkgpu_g1_encoding& e) {
  const size_t each = encoded_bytes(e);
  require(bytes, checked_mul(n, each, "n * point bytes"), "points");
  std::vector<G1Affine> pts(n);
  std::string err;
  for (size_t i = 0; i < n; ++i) {
    const uint8_t* p = bytes + i * each;
    const bool ok =
        e == ZKGPU_G1_COMPRESSED
            ? deserialize_compressed(std::span<const uint8_t, G1_COMPRESSED_BYTES>(p, G1_COMPRESSED_BYTES), pts[i], err)
            : deserialize_uncompressed(std::span<const uint8_t, G1_UNCOMPRESSED_BYTES>(p, G1_UNCOMPRESSED_BYTES),
                                       pts[i], err);
    if (!ok) throw_invalid("points[" + std::to_string(i) + "]: " + err);
  }
  return pts;
}

std::vector<Scalar> read_scalars(const uint8_t* bytes, size_t n) {
  require(bytes, checked_mul(n, ZKGPU_SCALAR_BYTES, "n * 32"), "scalars");
  std::vector<Scalar> s(n);
  for (size_t i = 0; i < n; ++i) {
    for (int limb = 0; limb < 4; ++limb) {
      uint64_t v = 0;
      for (int b = 7; b >= 0; --b) v = v << 8 | bytes[i * ZKGPU_SCALAR_BYTES + size_t(limb) * 8 + size_t(b)];
      s[i].l[limb] = v;
    }
    if (!(reduce_scalar(s[i]) == s[i]))
      throw_invalid("scalars[" + std::to_string(i) + "] is not below the group order r (a canonical Fr element)");
  }
  return s;
}

void write_point(const G1Affine& p, const zkgpu_g1_encoding& e, uint8_t* out) {
  if (e == ZKGPU_G1_COMPRESSED) {
    const auto b = serialize_compressed(p);
    std::memcpy(out, b.data(), b.size());
  } else {
    const auto b = serialize_uncompressed(p);
    std::memcpy(out, b.data(), b.size());
  }
}

}  // namespace

extern "C" {

zkgpu_status zkgpu_msm(const uint8_t* points, const uint8_t* scalars, size_t n, zkgpu_g1_encoding encoding,
                       zkgpu_backend backend, uint8_t* result) {
  return guarded([&] {
    const Backend b = backend_of(backend);
    require(result, "result");
    const std::vector<G1Affine> pts = read_points(points, n, encoding);
    const std::vector<Scalar> s = read_scalars(scalars, n);
    write_point(msm(pts, s, MsmOptions{.backend = b}), encoding, result);
  });
}

zkgpu_status zkgpu_msm_bases_create(const uint8_t* points, size_t n, zkgpu_g1_encoding encoding,
                                    zkgpu_msm_bases** out_bases) {
  return guarded([&] {
    require(out_bases, "out_bases");
    *out_bases = nullptr;
    if (n > MSM_MAX_POINTS)
      throw_invalid("n = " + std::to_string(n) + " bases exceed MSM_MAX_POINTS = " + std::to_string(MSM_MAX_POINTS));
    const std::vector<G1Affine> pts = read_points(points, n, encoding);
    // Decoding checked the subgroup already (arkworks' Validate::Yes): no second check.
    *out_bases = new zkgpu_msm_bases{MsmBases(pts, /*check_subgroup=*/false), {}};
  });
}

void zkgpu_msm_bases_free(zkgpu_msm_bases* bases) { delete bases; }

zkgpu_status zkgpu_msm_bases_size(const zkgpu_msm_bases* bases, size_t* n) {
  return guarded([&] {
    require(bases, "bases");
    require(n, "n");
    *n = bases->bases.size();
  });
}

zkgpu_status zkgpu_msm_with_bases(const zkgpu_msm_bases* bases, const uint8_t* scalars, size_t n,
                                  zkgpu_g1_encoding encoding, zkgpu_backend backend, uint8_t* result) {
  return guarded([&] {
    require(bases, "bases");
    const Backend b = backend_of(backend);
    (void)encoded_bytes(encoding);
    require(result, "result");
    if (n != bases->bases.size())
      throw_invalid("n = " + std::to_string(n) + " scalars for " + std::to_string(bases->bases.size()) + " bases");
    const std::vector<Scalar> s = read_scalars(scalars, n);
    {
      const std::lock_guard<std::mutex> lock(bases->upload);
      if (n > 0 && resolve_backend(b, n, MSM_GPU_CROSSOVER_POINTS) == Backend::Cuda) bases->bases.upload();
    }
    write_point(msm(bases->bases, s, MsmOptions{.backend = b}), encoding, result);
  });
}

zkgpu_status zkgpu_msm_bases_export(const zkgpu_msm_bases* bases, uint8_t* out, size_t out_len) {
  return guarded([&] {
    require(bases, "bases");
    const std::vector<TePrecomputed>& te = bases->bases.te_points();
    const size_t want = te.size() * sizeof(TePrecomputed);
    if (out_len != want)
      throw_invalid("out_len is " + std::to_string(out_len) + " bytes, the bases need " + std::to_string(want) +
                    " (n * ZKGPU_MSM_PRECOMPUTED_BYTES)");
    require(out, out_len, "out");
    if (want) std::memcpy(out, te.data(), want);
  });
}

zkgpu_status zkgpu_msm_device(const void* d_points, const void* d_scalars, size_t n, unsigned window_bits,
                              zkgpu_g1_encoding encoding, void* stream, uint8_t* result) {
  return guarded([&] {
    (void)encoded_bytes(encoding);
    require(result, "result");
    write_point(msm_device_resident(static_cast<const TePrecomputed*>(d_points), static_cast<const Scalar*>(d_scalars),
                                    n, window_bits, GpuStream{stream}),
                encoding, result);
  });
}

}  // extern "C"

// The C ABI's ML-KEM batches (include/zkgpu.h), over include/zkgpu/mlkem.hpp: fixed-size items
// packed back to back, a per-item status byte (zkgpu::PqStatus's values). The C++ batches write
// item i's outputs while other items' inputs are still to be read, so no output may overlap
// another buffer of the call.
#include <string>

#include "capi/capi.hpp"
#include "capi/pq.hpp"
#include "zkgpu/mlkem.hpp"

using namespace zkgpu;
using namespace zkgpu::capi;

namespace {

MlKemSet set_of(const zkgpu_mlkem_set& s) {
  static_assert(ZKGPU_MLKEM_512 == 0 && ZKGPU_MLKEM_768 == 1 && ZKGPU_MLKEM_1024 == 2);
  constexpr MlKemSet values[] = {MlKemSet::MlKem512, MlKemSet::MlKem768, MlKemSet::MlKem1024};
  return enum_of(s, values, "set", "zkgpu_mlkem_set", "0 ML-KEM-512, 1 ML-KEM-768, 2 ML-KEM-1024");
}

}  // namespace

extern "C" {

zkgpu_status zkgpu_mlkem_sizes_of(zkgpu_mlkem_set set, zkgpu_mlkem_sizes* sizes) {
  return guarded([&] {
    require(sizes, "sizes");
    const MlKemSizes sz = mlkem_sizes(set_of(set));
    *sizes = {sz.ek, sz.dk, sz.ct, MlKemSizes::seed, MlKemSizes::msg, MlKemSizes::key};
  });
}

zkgpu_status zkgpu_mlkem_keygen_batch(zkgpu_mlkem_set set, const uint8_t* seeds, size_t n, zkgpu_backend backend,
                                      uint8_t* ek, uint8_t* dk) {
  return guarded([&] {
    const MlKemSet s = set_of(set);
    const Backend b = backend_of(backend);
    const MlKemSizes sz = mlkem_sizes(s);
    const KeyGenBuffers k = keygen_buffers(n, seeds, MlKemSizes::seed, {ek, sz.ek, "ek"}, {dk, sz.dk, "dk"});
    mlkem_keygen_batch(s, k.seeds, k.first, k.second, b);
  });
}

zkgpu_status zkgpu_mlkem_encaps_batch(zkgpu_mlkem_set set, const uint8_t* ek, const uint8_t* m, size_t n,
                                      zkgpu_backend backend, uint8_t* ct, uint8_t* key, uint8_t* status) {
  return guarded([&] {
    const MlKemSet s = set_of(set);
    const Backend b = backend_of(backend);
    const MlKemSizes sz = mlkem_sizes(s);
    const auto e = packed(ek, n, sz.ek, "ek"), msg = packed(m, n, MlKemSizes::msg, "m");
    const auto c = packed(ct, n, sz.ct, "ct"), k = packed(key, n, MlKemSizes::key, "key");
    StatusOut st(status, n);
    require_no_aliasing(
        {read_region(e, "ek"), read_region(msg, "m"), written_region(c, "ct"), written_region(k, "key"), st.region()});
    mlkem_encaps_batch(s, e, msg, c, k, st.span(), b);
    st.commit();
  });
}

zkgpu_status zkgpu_mlkem_encaps_random_batch(zkgpu_mlkem_set set, const uint8_t* ek, size_t n, zkgpu_backend backend,
                                             uint8_t* ct, uint8_t* key, uint8_t* status) {
  return guarded([&] {
    const MlKemSet s = set_of(set);
    const Backend b = backend_of(backend);
    const MlKemSizes sz = mlkem_sizes(s);
    const auto e = packed(ek, n, sz.ek, "ek");
    const auto c = packed(ct, n, sz.ct, "ct"), k = packed(key, n, MlKemSizes::key, "key");
    StatusOut st(status, n);
    require_no_aliasing({read_region(e, "ek"), written_region(c, "ct"), written_region(k, "key"), st.region()});
    mlkem_encaps_random_batch(s, e, c, k, st.span(), b);
    st.commit();
  });
}

zkgpu_status zkgpu_mlkem_decaps_batch(zkgpu_mlkem_set set, const uint8_t* dk, const uint8_t* ct, size_t n,
                                      zkgpu_backend backend, uint8_t* key, uint8_t* status) {
  return guarded([&] {
    const MlKemSet s = set_of(set);
    const Backend b = backend_of(backend);
    const MlKemSizes sz = mlkem_sizes(s);
    const auto d = packed(dk, n, sz.dk, "dk"), c = packed(ct, n, sz.ct, "ct");
    const auto k = packed(key, n, MlKemSizes::key, "key");
    StatusOut st(status, n);
    require_no_aliasing({read_region(d, "dk"), read_region(c, "ct"), written_region(k, "key"), st.region()});
    mlkem_decaps_batch(s, d, c, k, st.span(), b);
    st.commit();
  });
}

// Device buffers: the C++ *_device calls check the rest (device memory, alignment, overlaps). A
// status byte is a PqStatus, the same values (capi/pq.hpp).
zkgpu_status zkgpu_mlkem_keygen_batch_device(zkgpu_mlkem_set set, const uint8_t* seeds, size_t n, uint8_t* ek,
                                             uint8_t* dk, void* stream) {
  return guarded([&] {
    const MlKemSet s = set_of(set);
    const MlKemSizes sz = mlkem_sizes(s);
    const KeyGenBuffers k = keygen_buffers(n, seeds, MlKemSizes::seed, {ek, sz.ek, "ek"}, {dk, sz.dk, "dk"});
    mlkem_keygen_batch_device(s, k.seeds.data(), k.first.data(), k.second.data(), n, GpuStream{stream});
  });
}

zkgpu_status zkgpu_mlkem_encaps_batch_device(zkgpu_mlkem_set set, const uint8_t* ek, const uint8_t* m, size_t n,
                                             uint8_t* ct, uint8_t* key, uint8_t* status, void* stream) {
  return guarded([&] {
    const MlKemSet s = set_of(set);
    const MlKemSizes sz = mlkem_sizes(s);
    const auto e = packed(ek, n, sz.ek, "ek"), msg = packed(m, n, MlKemSizes::msg, "m");
    const auto c = packed(ct, n, sz.ct, "ct"), k = packed(key, n, MlKemSizes::key, "key");
    mlkem_encaps_batch_device(s, e.data(), msg.data(), c.data(), k.data(), device_status(status, n), n,
                              GpuStream{stream});
  });
}

zkgpu_status zkgpu_mlkem_encaps_random_batch_device(zkgpu_mlkem_set set, const uint8_t* ek, size_t n, uint8_t* ct,
                                                    uint8_t* key, uint8_t* status, void* stream) {
  return guarded([&] {
    const MlKemSet s = set_of(set);
    const MlKemSizes sz = mlkem_sizes(s);
    const auto e = packed(ek, n, sz.ek, "ek");
    const auto c = packed(ct, n, sz.ct, "ct"), k = packed(key, n, MlKemSizes::key, "key");
    mlkem_encaps_random_batch_device(s, e.data(), c.data(), k.data(), device_status(status, n), n, GpuStream{stream});
  });
}

zkgpu_status zkgpu_mlkem_decaps_batch_device(zkgpu_mlkem_set set, const uint8_t* dk, const uint8_t* ct, size_t n,
                                             uint8_t* key, uint8_t* status, void* stream) {
  return guarded([&] {
    const MlKemSet s = set_of(set);
    const MlKemSizes sz = mlkem_sizes(s);
    const auto d = packed(dk, n, sz.dk, "dk"), c = packed(ct, n, sz.ct, "ct");
    const auto k = packed(key, n, MlKemSizes::key, "key");
    mlkem_decaps_batch_device(s, d.data(), c.data(), k.data(), device_status(status, n), n, GpuStream{stream});
  });
}

}  // extern "C"

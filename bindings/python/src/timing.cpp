// The C++ side of `python -m zkgpu bench`: each function calls the library in a C++ loop on
// inputs prepared once, as a C++ user would (an Ed25519PackedBatch over the same arrays,
// Montgomery buffers, a bases handle), so the Python call's time can be set beside the C++ API's for the same work.
// The loop is the one the Python side uses (zkgpu/_bench.py): one warm-up call, then calls until
// min_seconds have passed; the answer is the mean time per call.
#include <chrono>
#include <memory>
#include <string>

#include "common.hpp"
#include "zkgpu.h"
#include "zkgpu/ed25519.hpp"
#include "zkgpu/ntt.hpp"
#include "zkgpu/poseidon2.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu::python {

namespace {

template <class F>
nb::tuple time_loop(double min_seconds, F&& call) {
  using clock = std::chrono::steady_clock;
  size_t calls = 0;
  double elapsed = 0;
  {
    nb::gil_scoped_release unlocked;
    call();
    const auto t0 = clock::now();
    do {
      call();
      ++calls;
      elapsed = std::chrono::duration<double>(clock::now() - t0).count();
    } while (elapsed < min_seconds);
  }
  return nb::make_tuple(elapsed / double(calls), calls);
}

nb::tuple time_ed25519(U8In pks, U8In sigs, U8In msgs, std::string_view mode, std::string_view backend,
                       double min_seconds) {
  const auto md = parse_ed25519_mode(mode);
  if (!md) throw_invalid("unknown mode");
  const Backend b = backend_arg(backend);
  const size_t n = pks.shape(0), len = msgs.shape(1);
  if (pks.shape(1) != 32 || sigs.shape(1) != 64 || sigs.shape(0) != n || msgs.shape(0) != n)
    throw_invalid("time_ed25519 takes (n, 32), (n, 64) and (n, L) arrays");
  // The packed batch over the same arrays, its offsets made once: what a C++ caller passes.
  std::vector<uint64_t> offsets(n + 1);
  for (size_t i = 0; i <= n; ++i) offsets[i] = uint64_t(i) * len;
  const Ed25519PackedBatch batch{span_of(pks), span_of(sigs), span_of(msgs), offsets};
  std::vector<uint8_t> out(n);
  return time_loop(min_seconds, [&] { ed25519_verify_batch(batch, out, *md, Ed25519BatchOptions{.backend = b}); });
}

nb::tuple time_ntt(U32In values, unsigned log_n, size_t cols, std::string_view backend, double min_seconds) {
  const Backend b = backend_arg(backend);
  std::vector<BabyBear> m = load_canonical(span_of(values), "values");
  return time_loop(min_seconds, [&] { ntt(m, log_n, cols, NttDirection::Forward, BabyBear::one(), b); });
}

nb::tuple time_poseidon2(U32In states, int width, std::string_view backend, double min_seconds) {
  const Backend b = backend_arg(backend);
  std::vector<BabyBear> s = load_canonical(span_of(states), "states");
  return time_loop(min_seconds, [&] { poseidon2_permute_batch(s, width, Poseidon2Constants::Plonky3, b); });
}

nb::tuple time_msm(U8In points, U8In scalars, std::string_view backend, double min_seconds) {
  const zkgpu_backend b = capi_backend(backend);
  const size_t n = points.shape(0);
  zkgpu_msm_bases* raw = nullptr;
  check_capi(zkgpu_msm_bases_create(points.data(), n, ZKGPU_G1_COMPRESSED, &raw));
  const std::unique_ptr<zkgpu_msm_bases, void (*)(zkgpu_msm_bases*)> bases(raw, zkgpu_msm_bases_free);
  uint8_t out[ZKGPU_G1_COMPRESSED_BYTES];
  int status = ZKGPU_OK;
  nb::tuple t = time_loop(min_seconds, [&] {
    if (status == ZKGPU_OK) status = zkgpu_msm_with_bases(raw, scalars.data(), n, ZKGPU_G1_COMPRESSED, b, out);
  });
  check_capi(status);
  return t;
}

}  // namespace

void bind_timing(nb::module_& m) {
  m.def("time_ed25519", &time_ed25519);
  m.def("time_ntt", &time_ntt);
  m.def("time_poseidon2", &time_poseidon2);
  m.def("time_msm", &time_msm);
}

}  // namespace zkgpu::python

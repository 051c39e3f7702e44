// The device-pointer calls (ntt_device, coset_lde_device, lde_from_coeffs_device,
// poseidon2_permute_device, merkle_build_device; zkgpu_msm_device of the C ABI for the MSM) on
// GPU memory that a Python array owns. The Python layer (zkgpu/_gpu.py) turns a DLPack or
// __cuda_array_interface__ object into a pointer, a shape and a stream and keeps the object
// alive for the call; the library checks that every buffer is memory the current device can
// address before it enqueues anything. Buffers hold Montgomery words (the library's layout).
#include <nanobind/stl/string.h>

#include <string>

#include "common.hpp"
#include "zkgpu.h"
#include "zkgpu/merkle.hpp"
#include "zkgpu/ntt.hpp"
#include "zkgpu/poseidon2.hpp"
#include "zkgpu/status.hpp"

#if ZKGPU_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace zkgpu::python {

namespace {

template <class T>
T* ptr(uintptr_t p) {
  return reinterpret_cast<T*>(p);
}
GpuStream stream_of(uintptr_t s) { return GpuStream{reinterpret_cast<void*>(s)}; }

// What a DLPack capsule describes, for the Python layer to check: the data pointer (with the
// byte offset applied), shape, strides in elements (None: C-contiguous), dtype and device.
nb::tuple dlpack_view(nb::ndarray<> a) {
  nb::list shape, strides;
  for (size_t i = 0; i < a.ndim(); ++i) {
    shape.append(a.shape(i));
    strides.append(a.stride(i));
  }
  const nb::dlpack::dtype t = a.dtype();
  return nb::make_tuple(reinterpret_cast<uintptr_t>(a.data()), nb::tuple(shape), nb::tuple(strides), t.code, t.bits,
                        t.lanes, a.device_type(), a.device_id());
}

// Stream ordering for the Python layer, where it cannot ask the array's producer (DLPack does
// that): an array known only through __cuda_array_interface__ whose stream is not the one the work
// runs on, and the results handed back to a library (JAX, Numba, ...) whose stream zkgpu does
// not know. Every CUDA call is checked; without the CUDA backend they are Error(Unavailable).
#if ZKGPU_HAVE_CUDA
void cuda_check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw Error(ErrorCode::CudaError, std::string(what) + ": " + cudaGetErrorString(e));
}

void stream_synchronize(uintptr_t stream) {
  nb::gil_scoped_release unlocked;
  cuda_check(cudaStreamSynchronize(reinterpret_cast<cudaStream_t>(stream)), "cudaStreamSynchronize");
}

// Work enqueued on `waiter` from now on starts after what `producer` holds now.
void stream_wait(uintptr_t waiter, uintptr_t producer) {
  if (waiter == producer) return;
  cudaEvent_t ev = nullptr;
  cuda_check(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming), "cudaEventCreateWithFlags");
  cudaError_t e = cudaEventRecord(ev, reinterpret_cast<cudaStream_t>(producer));
  if (e == cudaSuccess) e = cudaStreamWaitEvent(reinterpret_cast<cudaStream_t>(waiter), ev, 0);
  const cudaError_t d = cudaEventDestroy(ev);  // released once the wait has been enqueued
  cuda_check(e, "cudaEventRecord / cudaStreamWaitEvent");
  cuda_check(d, "cudaEventDestroy");
}
#else
[[noreturn]] void no_cuda() { throw Error(ErrorCode::Unavailable, cuda_unavailable_reason()); }
void stream_synchronize(uintptr_t) { no_cuda(); }
void stream_wait(uintptr_t, uintptr_t) { no_cuda(); }
#endif

using LdeDeviceFn = void (*)(const BabyBear*, unsigned, size_t, unsigned, BabyBear, BabyBear*, GpuStream);

void def_lde(nb::module_& m, const char* name, LdeDeviceFn fn, const char* input) {
  m.def(
      name,
      [fn](uintptr_t in, unsigned log_n, size_t cols, unsigned log_blowup, uint64_t shift, uintptr_t out,
           uintptr_t stream) {
        const BabyBear s = field_arg(shift, "shift");
        nb::gil_scoped_release unlocked;
        fn(ptr<const BabyBear>(in), log_n, cols, log_blowup, s, ptr<BabyBear>(out), stream_of(stream));
      },
      nb::arg(input), nb::arg("log_n"), nb::arg("cols"), nb::arg("log_blowup"), nb::arg("shift"), nb::arg("out"),
      nb::arg("stream"));
}

}  // namespace

void bind_device(nb::module_& m) {
  m.def("dlpack_view", &dlpack_view, nb::arg("capsule"));
  m.def("stream_synchronize", &stream_synchronize, nb::arg("stream"));
  m.def("stream_wait", &stream_wait, nb::arg("waiter"), nb::arg("producer"));
  m.def(
      "ntt_device",
      [](uintptr_t matrix, unsigned log_n, size_t cols, bool inverse, uint64_t shift, uintptr_t stream) {
        const BabyBear s = field_arg(shift, "shift");
        nb::gil_scoped_release unlocked;
        ntt_device(ptr<BabyBear>(matrix), log_n, cols, inverse ? NttDirection::Inverse : NttDirection::Forward, s,
                   stream_of(stream));
      },
      nb::arg("matrix"), nb::arg("log_n"), nb::arg("cols"), nb::arg("inverse"), nb::arg("shift"), nb::arg("stream"));
  def_lde(m, "coset_lde_device", &coset_lde_device, "evals");
  def_lde(m, "lde_from_coeffs_device", &lde_from_coeffs_device, "coeffs");
  m.def(
      "poseidon2_permute_device",
      [](uintptr_t states, size_t n, int width, std::string_view constants, uintptr_t stream) {
        const Poseidon2Constants c = constants_arg(constants);
        nb::gil_scoped_release unlocked;
        poseidon2_permute_batch_device(ptr<BabyBear>(states), n, width, c, stream_of(stream));
      },
      nb::arg("states"), nb::arg("n"), nb::arg("width"), nb::arg("constants"), nb::arg("stream"));
  m.def(
      "merkle_build_device",
      [](uintptr_t matrix, size_t rows, size_t cols, std::string_view constants, uintptr_t nodes, uintptr_t stream) {
        const Poseidon2Params<16> p = merkle_params(constants);
        nb::gil_scoped_release unlocked;
        merkle_build_device(ptr<const BabyBear>(matrix), rows, cols, p, ptr<Digest>(nodes), stream_of(stream));
      },
      nb::arg("matrix"), nb::arg("rows"), nb::arg("cols"), nb::arg("constants"), nb::arg("nodes"), nb::arg("stream"));
  m.def(
      "msm_device",
      [](uintptr_t points, uintptr_t scalars, size_t n, unsigned window_bits, bool compressed, uintptr_t stream) {
        uint8_t out[ZKGPU_G1_UNCOMPRESSED_BYTES];
        {
          nb::gil_scoped_release unlocked;
          check_capi(zkgpu_msm_device(ptr<const void>(points), ptr<const void>(scalars), n, window_bits,
                                      compressed ? ZKGPU_G1_COMPRESSED : ZKGPU_G1_UNCOMPRESSED, ptr<void>(stream),
                                      out));
        }
        return nb::bytes(reinterpret_cast<const char*>(out),
                         compressed ? ZKGPU_G1_COMPRESSED_BYTES : ZKGPU_G1_UNCOMPRESSED_BYTES);
      },
      nb::arg("points"), nb::arg("scalars"), nb::arg("n"), nb::arg("window_bits"), nb::arg("compressed"),
      nb::arg("stream"));
}

}  // namespace zkgpu::python

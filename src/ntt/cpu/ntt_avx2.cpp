// AVX2 instantiation of the NTT kernels (8 lanes); reached only when simd_level() >= Avx2.
#include "field/cpu/packed_avx2.hpp"
// The kernels come after the packed type (and its intrinsics header).
#include "ntt/cpu/ntt_kernels.hpp"

namespace zkgpu::cpu::ntt_detail {
const NttIsa& isa_avx2() { return make_isa<PackedAvx2>(); }
}  // namespace zkgpu::cpu::ntt_detail

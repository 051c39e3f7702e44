// AVX-512 instantiation of the NTT kernels (16 lanes); reached only when simd_level() == Avx512.
#include "field/cpu/packed_avx512.hpp"
// The kernels come after the packed type (and its intrinsics header).
#include "ntt/cpu/ntt_kernels.hpp"

namespace zkgpu::cpu::ntt_detail {
const NttIsa& isa_avx512() { return make_isa<PackedAvx512>(); }
}  // namespace zkgpu::cpu::ntt_detail

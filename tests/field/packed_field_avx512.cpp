// AVX-512 instantiation of the packed-field test driver; called only when the CPU has AVX-512.
#include "field/cpu/packed_avx512.hpp"
#include "field/packed_ops.hpp"

namespace zkgpu::test {
void packed_ops_avx512(const BabyBear* a, const BabyBear* b, const BabyBear* c, size_t n,
                       BabyBear* const out[PACKED_OPS]) {
  packed_ops<cpu::PackedAvx512>(a, b, c, n, out);
}
}  // namespace zkgpu::test

#include "zkgpu/field.hpp"

#include <vector>

#include "zkgpu/core/field/batch_inverse.hpp"

namespace zkgpu {
namespace {

// A chunk amortises its one inversion (~30 squarings) over thousands of products.
constexpr size_t CHUNK = 4096;

template <class F>
void batch_inverse_chunked(std::span<F> xs) {
  const long long n_chunks = static_cast<long long>((xs.size() + CHUNK - 1) / CHUNK);
#pragma omp parallel if (n_chunks > 1)
  {
    std::vector<F> scratch(CHUNK);
#pragma omp for schedule(static)
    for (long long c = 0; c < n_chunks; ++c) {
      const size_t begin = static_cast<size_t>(c) * CHUNK;
      const size_t len = std::min(CHUNK, xs.size() - begin);
      batch_inverse_serial(xs.data() + begin, len, scratch.data());
    }
  }
}

}  // namespace

void batch_inverse(std::span<BabyBear> xs) { batch_inverse_chunked(xs); }
void batch_inverse(std::span<BabyBear4> xs) { batch_inverse_chunked(xs); }

}  // namespace zkgpu

// ML-KEM batches: the CPU backend (OpenMP over items) or the CUDA kernels, both calling
// core/mlkem per item; Auto picks the GPU from the crossovers of zkgpu/mlkem.hpp up. The CPU runs the
// core algorithms with the host Ops (pq/cpu/mlkem_cpu.hpp: four-way Keccak sampling, AVX2 NTTs),
// the kernels with the portable ones; both give the same bytes.
#include <cstring>
#include <vector>

#include "zkgpu/core/mlkem/kem.hpp"
#include "pq/cpu/mlkem_cpu.hpp"
#include "pq/pq_common.hpp"
#include "pq/pq_cuda.hpp"
#include "runtime/names.hpp"
#include "zkgpu/mlkem.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu {

MlKemSizes mlkem_sizes(MlKemSet set) {
  switch (set) {
    case MlKemSet::MlKem512: return {800, 1632, 768};
    case MlKemSet::MlKem768: return {1184, 2400, 1088};
    case MlKemSet::MlKem1024: return {1568, 3168, 1568};
  }
  throw_invalid("unknown ML-KEM parameter set");
}

namespace {
constexpr EnumName<MlKemSet> SET_NAMES[] = {{MlKemSet::MlKem512, "ML-KEM-512", "512"},
                                            {MlKemSet::MlKem768, "ML-KEM-768", "768"},
                                            {MlKemSet::MlKem1024, "ML-KEM-1024", "1024"}};
}  // namespace

std::optional<MlKemSet> parse_mlkem_set(std::string_view s) { return parse_name(SET_NAMES, s); }
const char* to_string(MlKemSet set) { return name_of(SET_NAMES, set); }

namespace {

// Calls f.template operator()<K>() for the set's rank, so each set gets its own instantiation.
template <class F>
void with_rank(MlKemSet set, F&& f) {
  switch (set) {
    case MlKemSet::MlKem512: f.template operator()<2>(); return;
    case MlKemSet::MlKem768: f.template operator()<3>(); return;
    case MlKemSet::MlKem1024: f.template operator()<4>(); return;
  }
  throw_invalid("unknown ML-KEM parameter set");
}

}  // namespace

void mlkem_keygen_batch(MlKemSet set, std::span<const uint8_t> seeds, std::span<uint8_t> ek, std::span<uint8_t> dk,
                        const PqBatchOptions& options) {
  const MlKemSizes sz = mlkem_sizes(set);
  const size_t n = seeds.size() / MlKemSizes::seed;
  pq::check_items(seeds, n, MlKemSizes::seed, "mlkem keygen", "seeds");
  pq::check_items(ek, n, sz.ek, "mlkem keygen", "ek");
  pq::check_items(dk, n, sz.dk, "mlkem keygen", "dk");
  if (resolve_backend(options.backend, n, pq::crossover(options, MLKEM_KEYGEN_GPU_CROSSOVER_ITEMS)) == Backend::Cuda) {
#if ZKGPU_HAVE_CUDA
    cuda::mlkem_keygen(int(set), n, seeds.data(), ek.data(), dk.data(), pq::gpu_options(options));
    return;
#endif
  }
  with_rank(set, [&]<int K>() {
#pragma omp parallel for schedule(static) if (n > 1)
    for (size_t i = 0; i < n; ++i) {
      const uint8_t* s = seeds.data() + i * 64;
      pq::cpu::MlKemOps ops;
      mlkem::keygen_with<K>(ops, ek.data() + i * sz.ek, dk.data() + i * sz.dk, s, s + 32);
    }
  });
}

void mlkem_encaps_batch(MlKemSet set, std::span<const uint8_t> ek, std::span<const uint8_t> m, std::span<uint8_t> ct,
                        std::span<uint8_t> key, std::span<PqStatus> status, const PqBatchOptions& options) {
  const MlKemSizes sz = mlkem_sizes(set);
  const size_t n = status.size();
  pq::check_items(ek, n, sz.ek, "mlkem encaps", "ek");
  pq::check_items(m, n, MlKemSizes::msg, "mlkem encaps", "m");
  pq::check_items(ct, n, sz.ct, "mlkem encaps", "ciphertexts");
  pq::check_items(key, n, MlKemSizes::key, "mlkem encaps", "keys");
  if (resolve_backend(options.backend, n, pq::crossover(options, MLKEM_GPU_CROSSOVER_ITEMS)) == Backend::Cuda) {
#if ZKGPU_HAVE_CUDA
    std::vector<uint8_t> ok(n);
    cuda::mlkem_encaps(int(set), n, ek.data(), m.data(), ct.data(), key.data(), ok.data(), pq::gpu_options(options));
    for (size_t i = 0; i < n; ++i) {
      status[i] = ok[i] ? PqStatus::Ok : PqStatus::InvalidInput;
      if (!ok[i]) {
        std::memset(ct.data() + i * sz.ct, 0, sz.ct);
        std::memset(key.data() + i * 32, 0, 32);
      }
    }
    return;
#endif
  }
  with_rank(set, [&]<int K>() {
#pragma omp parallel for schedule(static) if (n > 1)
    for (size_t i = 0; i < n; ++i) {
      uint8_t* c = ct.data() + i * sz.ct;
      uint8_t* k = key.data() + i * 32;
      pq::cpu::MlKemOps ops;
      const bool ok = mlkem::encaps_with<K>(ops, c, k, ek.data() + i * sz.ek, m.data() + i * 32);
      if (!ok) {
        std::memset(c, 0, sz.ct);
        std::memset(k, 0, 32);
      }
      status[i] = ok ? PqStatus::Ok : PqStatus::InvalidInput;
    }
  });
}

void mlkem_encaps_random_batch(MlKemSet set, std::span<const uint8_t> ek, std::span<uint8_t> ct, std::span<uint8_t> key,
                               std::span<PqStatus> status, const PqBatchOptions& options) {
  std::vector<uint8_t> m(status.size() * MlKemSizes::msg);
  fill_random(m.data(), m.size());
  mlkem_encaps_batch(set, ek, m, ct, key, status, options);
}

// The CUDA decapsulation runs as warp kernels (src/pq/cuda/mlkem_kernels.cu); the first, fused
// one-thread kernel disagreed with this CPU backend on the H200 and is kept only as a diagnostic.
namespace {
constexpr bool MLKEM_GPU_DECAPS_ENABLED = true;
}  // namespace

void mlkem_decaps_batch(MlKemSet set, std::span<const uint8_t> dk, std::span<const uint8_t> ct, std::span<uint8_t> key,
                        std::span<PqStatus> status, const PqBatchOptions& options) {
  const MlKemSizes sz = mlkem_sizes(set);
  const size_t n = status.size();
  pq::check_items(dk, n, sz.dk, "mlkem decaps", "dk");
  pq::check_items(ct, n, sz.ct, "mlkem decaps", "ciphertexts");
  pq::check_items(key, n, MlKemSizes::key, "mlkem decaps", "keys");
  if (!MLKEM_GPU_DECAPS_ENABLED && options.backend == Backend::Cuda)
    throw Error(ErrorCode::Unavailable, "mlkem decaps: the CUDA path is disabled; use cpu or auto");
  if (MLKEM_GPU_DECAPS_ENABLED &&
      resolve_backend(options.backend, n, pq::crossover(options, MLKEM_GPU_CROSSOVER_ITEMS)) == Backend::Cuda) {
#if ZKGPU_HAVE_CUDA
    std::vector<uint8_t> ok(n);
    cuda::mlkem_decaps(int(set), n, dk.data(), ct.data(), key.data(), ok.data(), pq::gpu_options(options));
    for (size_t i = 0; i < n; ++i) {
      status[i] = ok[i] ? PqStatus::Ok : PqStatus::InvalidInput;
      if (!ok[i]) std::memset(key.data() + i * 32, 0, 32);
    }
    return;
#endif
  }
  with_rank(set, [&]<int K>() {
#pragma omp parallel for schedule(static) if (n > 1)
    for (size_t i = 0; i < n; ++i) {
      uint8_t* k = key.data() + i * 32;
      pq::cpu::MlKemOps ops;
      const bool ok = mlkem::decaps_with<K>(ops, k, dk.data() + i * sz.dk, ct.data() + i * sz.ct);
      if (!ok) std::memset(k, 0, 32);
      status[i] = ok ? PqStatus::Ok : PqStatus::InvalidInput;
    }
  });
}

void mlkem_keygen_batch(MlKemSet set, std::span<const uint8_t> seeds, std::span<uint8_t> ek, std::span<uint8_t> dk,
                        Backend backend) {
  mlkem_keygen_batch(set, seeds, ek, dk, PqBatchOptions{.backend = backend});
}

void mlkem_encaps_batch(MlKemSet set, std::span<const uint8_t> ek, std::span<const uint8_t> m, std::span<uint8_t> ct,
                        std::span<uint8_t> key, std::span<PqStatus> status, Backend backend) {
  mlkem_encaps_batch(set, ek, m, ct, key, status, PqBatchOptions{.backend = backend});
}

void mlkem_encaps_random_batch(MlKemSet set, std::span<const uint8_t> ek, std::span<uint8_t> ct, std::span<uint8_t> key,
                               std::span<PqStatus> status, Backend backend) {
  mlkem_encaps_random_batch(set, ek, ct, key, status, PqBatchOptions{.backend = backend});
}

void mlkem_decaps_batch(MlKemSet set, std::span<const uint8_t> dk, std::span<const uint8_t> ct, std::span<uint8_t> key,
                        std::span<PqStatus> status, Backend backend) {
  mlkem_decaps_batch(set, dk, ct, key, status, PqBatchOptions{.backend = backend});
}

}  // namespace zkgpu

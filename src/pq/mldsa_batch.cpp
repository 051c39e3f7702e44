// ML-DSA batches: input checks and mu on the CPU, then the CPU backend (OpenMP over items; a
// dynamic schedule, as signing time varies with the rejected attempts) or the CUDA kernels, both
// calling core/mldsa per item. Auto picks the GPU from the per-operation crossovers of zkgpu/mldsa.hpp.
// The CPU runs the core algorithms with the host samplers (pq/cpu/mldsa_cpu.hpp: four SHAKE
// streams at a time), the kernels with the portable ones; both give the same bytes.
#include <cstring>
#include <vector>

#include "zkgpu/core/mldsa/dsa.hpp"
#include "pq/cpu/mldsa_cpu.hpp"
#include "pq/pq_common.hpp"
#include "pq/pq_cuda.hpp"
#include "runtime/names.hpp"
#include "zkgpu/mldsa.hpp"

namespace zkgpu {

namespace {
template <class F>
void with_params(MlDsaSet set, F&& f) {
  switch (set) {
    case MlDsaSet::MlDsa44: f.template operator()<mldsa::P44>(); return;
    case MlDsaSet::MlDsa65: f.template operator()<mldsa::P65>(); return;
    case MlDsaSet::MlDsa87: f.template operator()<mldsa::P87>(); return;
  }
  throw_invalid("unknown ML-DSA parameter set");
}
}  // namespace

MlDsaSizes mldsa_sizes(MlDsaSet set) {
  MlDsaSizes s{};
  with_params(set, [&]<class P>() { s = {P::PK_BYTES, P::SK_BYTES, P::SIG_BYTES}; });
  return s;
}

namespace {
constexpr EnumName<MlDsaSet> SET_NAMES[] = {{MlDsaSet::MlDsa44, "ML-DSA-44", "44"},
                                            {MlDsaSet::MlDsa65, "ML-DSA-65", "65"},
                                            {MlDsaSet::MlDsa87, "ML-DSA-87", "87"}};
}  // namespace

std::optional<MlDsaSet> parse_mldsa_set(std::string_view s) { return parse_name(SET_NAMES, s); }
const char* to_string(MlDsaSet set) { return name_of(SET_NAMES, set); }

void mldsa_keygen_batch(MlDsaSet set, std::span<const uint8_t> seeds, std::span<uint8_t> pk, std::span<uint8_t> sk,
                        const PqBatchOptions& options) {
  const MlDsaSizes sz = mldsa_sizes(set);
  const size_t n = seeds.size() / MlDsaSizes::seed;
  pq::check_items(seeds, n, MlDsaSizes::seed, "mldsa keygen", "seeds");
  pq::check_items(pk, n, sz.pk, "mldsa keygen", "pk");
  pq::check_items(sk, n, sz.sk, "mldsa keygen", "sk");
  if (resolve_backend(options.backend, n, pq::crossover(options, MLDSA_KEYGEN_GPU_CROSSOVER_ITEMS)) == Backend::Cuda) {
#if ZKGPU_HAVE_CUDA
    cuda::mldsa_keygen(pq::mldsa_level(set), n, seeds.data(), pk.data(), sk.data(), pq::gpu_options(options));
    return;
#endif
  }
  with_params(set, [&]<class P>() {
#pragma omp parallel for schedule(static) if (n > 1)
    for (size_t i = 0; i < n; ++i) {
      pq::cpu::MlDsaOps ops;
      mldsa::keygen_with<P>(ops, pk.data() + i * sz.pk, sk.data() + i * sz.sk, seeds.data() + i * 32);
    }
  });
}

void mldsa_sign_batch(MlDsaSet set, std::span<const MlDsaSignItem> items, std::span<uint8_t> sigs,
                      std::span<PqStatus> status, const MlDsaSignOptions& options) {
  const MlDsaSizes sz = mldsa_sizes(set);
  const size_t n = items.size();
  pq::check_items(sigs, n, sz.sig, "mldsa sign", "signatures");
  pq::check_items(status, n, 1, "mldsa sign", "status");
  const bool gpu =
      resolve_backend(options.backend, n, pq::crossover(options, MLDSA_SIGN_GPU_CROSSOVER_ITEMS)) == Backend::Cuda;
  with_params(set, [&]<class P>() {
    // Per item on the CPU: the input checks, and for the CPU backend mu (the GPU computes mu).
    std::vector<uint8_t> mus(gpu ? 0 : n * 64), rnds(gpu ? 0 : n * 32), ok(n);
#pragma omp parallel for schedule(static) if (n > 1)
    for (size_t i = 0; i < n; ++i) {
      const MlDsaSignItem& it = items[i];
      ok[i] = it.sk.size() == P::SK_BYTES && (it.rnd.empty() || it.rnd.size() == 32) &&
              (it.external_mu ? it.msg.size() == 64 : it.ctx.size() <= MlDsaSizes::max_ctx);
      if (!ok[i] || gpu) continue;
      if (it.external_mu)
        std::memcpy(&mus[i * 64], it.msg.data(), 64);
      else
        mldsa::compute_mu(&mus[i * 64], it.sk.data() + mldsa::SkLayout<P>::TR, it.ctx.data(), uint8_t(it.ctx.size()),
                          it.msg.data(), it.msg.size());
      if (!it.rnd.empty()) std::memcpy(&rnds[i * 32], it.rnd.data(), 32);  // else 0^32: deterministic
    }
    if (gpu) {
#if ZKGPU_HAVE_CUDA
      cuda::mldsa_sign_items(
          pq::mldsa_level(set), items, sigs.data(), ok.data(),
          {.phases = options.phase_times, .profile = options.sign_profile, .memory_budget = options.gpu_memory_budget});
#endif
    } else {
#pragma omp parallel for schedule(dynamic, 4) if (n > 1)
      for (size_t i = 0; i < n; ++i) {
        pq::cpu::MlDsaOps ops;
        if (ok[i])
          ok[i] =
              mldsa::sign_mu_with<P>(ops, sigs.data() + i * sz.sig, items[i].sk.data(), &mus[i * 64], &rnds[i * 32]);
      }
    }
    for (size_t i = 0; i < n; ++i) {
      if (!ok[i]) std::memset(sigs.data() + i * sz.sig, 0, sz.sig);
      status[i] = ok[i] ? PqStatus::Ok : PqStatus::InvalidInput;
    }
  });
}

void mldsa_verify_batch(MlDsaSet set, std::span<const MlDsaVerifyItem> items, std::span<uint8_t> ok,
                        const PqBatchOptions& options) {
  const size_t n = items.size();
  pq::check_items(ok, n, 1, "mldsa verify", "results");
  const bool gpu =
      resolve_backend(options.backend, n, pq::crossover(options, MLDSA_VERIFY_GPU_CROSSOVER_ITEMS)) == Backend::Cuda;
  with_params(set, [&]<class P>() {
    // The GPU path gets only the length checks here: it computes tr and mu on the device.
    std::vector<uint8_t> mus(gpu ? 0 : n * 64);
#pragma omp parallel for schedule(static) if (n > 1)
    for (size_t i = 0; i < n; ++i) {
      const MlDsaVerifyItem& it = items[i];
      ok[i] = it.pk.size() == P::PK_BYTES && it.sig.size() == P::SIG_BYTES &&
              (it.external_mu ? it.msg.size() == 64 : it.ctx.size() <= MlDsaSizes::max_ctx);
      if (!ok[i] || gpu) continue;
      if (it.external_mu) {
        std::memcpy(&mus[i * 64], it.msg.data(), 64);
      } else {
        uint8_t tr[64];
        keccak::shake256(tr, 64, it.pk.data(), P::PK_BYTES);
        mldsa::compute_mu(&mus[i * 64], tr, it.ctx.data(), uint8_t(it.ctx.size()), it.msg.data(), it.msg.size());
      }
      pq::cpu::MlDsaOps ops;
      ok[i] = mldsa::verify_mu_with<P>(ops, it.pk.data(), &mus[i * 64], it.sig.data());
    }
#if ZKGPU_HAVE_CUDA
    if (gpu) cuda::mldsa_verify_items(pq::mldsa_level(set), items, ok.data(), pq::gpu_options(options));
#endif
  });
}

void mldsa_keygen_batch(MlDsaSet set, std::span<const uint8_t> seeds, std::span<uint8_t> pk, std::span<uint8_t> sk,
                        Backend backend) {
  mldsa_keygen_batch(set, seeds, pk, sk, PqBatchOptions{.backend = backend});
}

void mldsa_sign_batch(MlDsaSet set, std::span<const MlDsaSignItem> items, std::span<uint8_t> sigs,
                      std::span<PqStatus> status, Backend backend) {
  MlDsaSignOptions options;
  options.backend = backend;
  mldsa_sign_batch(set, items, sigs, status, options);
}

void mldsa_verify_batch(MlDsaSet set, std::span<const MlDsaVerifyItem> items, std::span<uint8_t> ok, Backend backend) {
  mldsa_verify_batch(set, items, ok, PqBatchOptions{.backend = backend});
}

}  // namespace zkgpu

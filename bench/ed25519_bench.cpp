// Ed25519 verification: our CPU backend (one thread and all threads, each mode), the ZIP-215
// batch equation, libsodium and OpenSSL one thread, and the GPU end to end, on the same valid
// signatures (64-byte messages). `zkgpu ed25519 bench` gives the batch-size sweep and crossover.
#include <benchmark/benchmark.h>
#include <omp.h>
#include <openssl/evp.h>
#include <sodium.h>

#include <cstring>
#include <vector>

#include "zkgpu/backend.hpp"
#include "zkgpu/ed25519.hpp"

namespace zkgpu {
namespace {

struct Signed {
  std::vector<uint8_t> keys, sigs, msgs;
  std::vector<Ed25519Item> items;
  explicit Signed(size_t n) : keys(32 * n), sigs(64 * n), msgs(64 * n), items(n) {
    if (sodium_init() < 0) throw std::runtime_error("libsodium init failed");
    for (size_t i = 0; i < n; ++i) {
      uint8_t seed[32] = {}, sk[64];
      std::memcpy(seed, &i, sizeof i);
      crypto_sign_seed_keypair(&keys[32 * i], sk, seed);
      for (size_t j = 0; j < 64; ++j) msgs[64 * i + j] = static_cast<uint8_t>(i + 3 * j);
      crypto_sign_detached(&sigs[64 * i], nullptr, &msgs[64 * i], 64, sk);
      items[i] = {{&keys[32 * i], 32}, {&sigs[64 * i], 64}, {&msgs[64 * i], 64}};
    }
  }
};

const Signed& signed_batch() {
  static const Signed s(4096);
  return s;
}

std::span<const Ed25519Item> first(size_t n) { return std::span(signed_batch().items).first(n); }

void BM_Ed25519VerifyCpu(benchmark::State& st) {
  const auto items = first(static_cast<size_t>(st.range(0)));
  const auto mode = static_cast<Ed25519Mode>(st.range(1));
  const int threads = static_cast<int>(st.range(2));
  const int saved = omp_get_max_threads();
  if (threads > 0) omp_set_num_threads(threads);
  std::vector<uint8_t> out(items.size());
  for (auto _ : st) {
    ed25519_verify_batch(items, out, mode, Backend::Cpu);
    benchmark::DoNotOptimize(out.data());
  }
  omp_set_num_threads(saved);
  st.SetItemsProcessed(st.iterations() * static_cast<int64_t>(items.size()));
}
// (batch, mode 0 openssl / 1 strict / 2 zip215, threads; 0 = all)
BENCHMARK(BM_Ed25519VerifyCpu)
    ->Args({256, 0, 1})
    ->Args({256, 1, 1})
    ->Args({256, 2, 1})
    ->Args({4096, 0, 0})
    ->UseRealTime();

void BM_Ed25519Zip215BatchEquation(benchmark::State& st) {
  const auto items = first(static_cast<size_t>(st.range(0)));
  const int saved = omp_get_max_threads();
  if (st.range(1) > 0) omp_set_num_threads(static_cast<int>(st.range(1)));
  for (auto _ : st) {
    bool ok = ed25519_batch_equation_zip215(items);
    if (!ok) st.SkipWithError("batch equation failed on valid signatures");
    benchmark::DoNotOptimize(ok);
  }
  omp_set_num_threads(saved);
  st.SetItemsProcessed(st.iterations() * static_cast<int64_t>(items.size()));
}
BENCHMARK(BM_Ed25519Zip215BatchEquation)->Args({64, 1})->Args({1024, 1})->Args({4096, 0})->UseRealTime();

void BM_Ed25519LibsodiumVerify(benchmark::State& st) {
  const auto items = first(256);
  for (auto _ : st)
    for (const auto& it : items)
      benchmark::DoNotOptimize(
          crypto_sign_verify_detached(it.signature.data(), it.message.data(), it.message.size(), it.public_key.data()));
  st.SetItemsProcessed(st.iterations() * static_cast<int64_t>(items.size()));
}
BENCHMARK(BM_Ed25519LibsodiumVerify);

void BM_Ed25519OpensslVerify(benchmark::State& st) {
  const auto items = first(256);
  for (auto _ : st)
    for (const auto& it : items) {
      EVP_PKEY* key = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nullptr, it.public_key.data(), 32);
      EVP_MD_CTX* ctx = EVP_MD_CTX_new();
      int ok = EVP_DigestVerifyInit(ctx, nullptr, nullptr, nullptr, key) == 1 &&
               EVP_DigestVerify(ctx, it.signature.data(), 64, it.message.data(), it.message.size()) == 1;
      benchmark::DoNotOptimize(ok);
      EVP_MD_CTX_free(ctx);
      EVP_PKEY_free(key);
    }
  st.SetItemsProcessed(st.iterations() * static_cast<int64_t>(items.size()));
}
BENCHMARK(BM_Ed25519OpensslVerify);

void BM_Ed25519VerifyGpu(benchmark::State& st) {
  if (!cuda_usable()) {
    st.SkipWithError(("no usable GPU: " + cuda_unavailable_reason()).c_str());
    return;
  }
  const auto items = first(static_cast<size_t>(st.range(0)));
  std::vector<uint8_t> out(items.size());
  for (auto _ : st) {
    ed25519_verify_batch(items, out, Ed25519Mode::Openssl, Backend::Cuda);
    benchmark::DoNotOptimize(out.data());
  }
  st.SetItemsProcessed(st.iterations() * static_cast<int64_t>(items.size()));
}
BENCHMARK(BM_Ed25519VerifyGpu)->Arg(1)->Arg(64)->Arg(4096)->UseRealTime();

}  // namespace
}  // namespace zkgpu

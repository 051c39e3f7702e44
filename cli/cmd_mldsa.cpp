// `zkgpu mldsa keygen|sign|verify|bench`: line-oriented ML-DSA for scripts and cross-checks.
// Input lines are ':'-separated hex fields; each gives one output line. Keygen and sign answer
// `error` for an item they reject (wrong lengths, context over 255 bytes, malformed sk); verify
// answers 0 for anything that is not a valid signature, wrong lengths included. Exit status 0 when
// no item is rejected, 1 when some is; an unparsable line is reported on stderr with exit status 2
// and no output; empty input gives a notice on stderr.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "io/hex_lines.hpp"
#include "options.hpp"
#include "pq_bench.hpp"
#include "zkgpu/mldsa.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu::cli {

namespace {

struct DsaOptions {
  MlDsaSet set = MlDsaSet::MlDsa65;
  Backend backend = Backend::Auto;
};

const Names<MlDsaSet>& dsa_set_names() {
  static const Names<MlDsaSet> names = {
      {"44", MlDsaSet::MlDsa44}, {"65", MlDsaSet::MlDsa65}, {"87", MlDsaSet::MlDsa87}};
  return names;
}

// `xi` -> `pk:sk`.
int run_keygen(const DsaOptions& o) {
  const MlDsaSet set = o.set;
  std::vector<std::vector<Bytes>> lines;
  if (!read_hex_stdin(1, lines)) return EXIT_USAGE;
  const MlDsaSizes sz = mldsa_sizes(set);
  Bytes seeds;
  std::vector<size_t> idx;
  for (const auto& f : lines) {
    if (f[0].size() == 32) {
      idx.push_back(seeds.size() / 32);
      seeds.insert(seeds.end(), f[0].begin(), f[0].end());
    } else {
      idx.push_back(SIZE_MAX);
    }
  }
  const size_t n = seeds.size() / 32;
  Bytes pk(n * sz.pk), sk(n * sz.sk);
  const Backend ran = backend_that_runs(o.backend, n, MLDSA_KEYGEN_GPU_CROSSOVER_ITEMS);
  mldsa_keygen_batch(set, seeds, pk, sk, ran);
  std::string out;
  size_t rejected = 0;
  for (size_t i : idx) {
    rejected += i == SIZE_MAX;
    out += i == SIZE_MAX ? "error\n" : to_hex(&pk[i * sz.pk], sz.pk) + ":" + to_hex(&sk[i * sz.sk], sz.sk) + "\n";
  }
  return finish_items("mldsa keygen", out, idx.size(), rejected, ran);
}

// `sk:msg:ctx:rnd` -> `sig` (empty rnd: deterministic).
int run_sign(const DsaOptions& o) {
  const MlDsaSet set = o.set;
  std::vector<std::vector<Bytes>> lines;
  if (!read_hex_stdin(4, lines)) return EXIT_USAGE;
  const MlDsaSizes sz = mldsa_sizes(set);
  std::vector<MlDsaSignItem> items;
  for (const auto& f : lines) items.push_back({f[0], f[1], f[2], f[3], false});
  Bytes sigs(items.size() * sz.sig);
  std::vector<PqStatus> st(items.size());
  const Backend ran = backend_that_runs(o.backend, items.size(), MLDSA_SIGN_GPU_CROSSOVER_ITEMS);
  mldsa_sign_batch(set, items, sigs, st, ran);
  std::string out;
  size_t rejected = 0;
  for (size_t i = 0; i < items.size(); ++i) {
    rejected += st[i] != PqStatus::Ok;
    out += st[i] == PqStatus::Ok ? to_hex(&sigs[i * sz.sig], sz.sig) + "\n" : "error\n";
  }
  return finish_items("mldsa sign", out, items.size(), rejected, ran);
}

// `pk:msg:ctx:sig` -> `1` or `0`.
int run_verify(const DsaOptions& o) {
  const MlDsaSet set = o.set;
  std::vector<std::vector<Bytes>> lines;
  if (!read_hex_stdin(4, lines)) return EXIT_USAGE;
  std::vector<MlDsaVerifyItem> items;
  for (const auto& f : lines) items.push_back({f[0], f[1], f[2], f[3], false});
  std::vector<uint8_t> ok(items.size());
  const Backend ran = backend_that_runs(o.backend, items.size(), MLDSA_VERIFY_GPU_CROSSOVER_ITEMS);
  mldsa_verify_batch(set, items, ok, ran);
  return finish_verdicts("mldsa verify", ok, ran);
}

int run_bench(const PqBenchOptions& o) {
  std::vector<MlDsaSet> sets;
  for (const auto& [name, set] : dsa_set_names())
    if (o.set == "all" || o.set == name) sets.push_back(set);
  const std::vector<Backend> backends = pq_bench_backends(o, "mldsa bench");
  const int threads = pq_bench_apply_threads(o);
  std::vector<PqBenchRow> rows;
  for (MlDsaSet set : sets) {
    const MlDsaSizes sz = mldsa_sizes(set);
    for (size_t b : pq_bench_batches(o))
      for (Backend backend : backends) {
        // 32-byte random messages, empty context, hedged signing (fresh rnd per item), as a TLS
        // or validator workload would sign; the signing rate averages over the rejection loop.
        Bytes seeds(b * 32), pk(b * sz.pk), sk(b * sz.sk), msgs(b * 32), rnds(b * 32), sigs(b * sz.sig);
        fill_random(seeds.data(), seeds.size());
        fill_random(msgs.data(), msgs.size());
        fill_random(rnds.data(), rnds.size());
        std::vector<PqStatus> st(b);
        std::vector<uint8_t> ok(b);
        std::vector<MlDsaSignItem> sign_items(b);
        std::vector<MlDsaVerifyItem> verify_items(b);
        for (size_t i = 0; i < b; ++i) {
          sign_items[i] = {{&sk[i * sz.sk], sz.sk}, {&msgs[i * 32], 32}, {}, {&rnds[i * 32], 32}, false};
          verify_items[i] = {{&pk[i * sz.pk], sz.pk}, {&msgs[i * 32], 32}, {}, {&sigs[i * sz.sig], sz.sig}, false};
        }
        const Backend kg = backend_that_runs(backend, b, MLDSA_KEYGEN_GPU_CROSSOVER_ITEMS);
        const Backend sg = backend_that_runs(backend, b, MLDSA_SIGN_GPU_CROSSOVER_ITEMS);
        const Backend vf = backend_that_runs(backend, b, MLDSA_VERIFY_GPU_CROSSOVER_ITEMS);
        rows.push_back(pq_bench_measure(o, to_string(set), "keygen", b, threads, kg,
                                        [&] { mldsa_keygen_batch(set, seeds, pk, sk, kg); }));
        rows.push_back(pq_bench_measure(o, to_string(set), "sign", b, threads, sg,
                                        [&] { mldsa_sign_batch(set, sign_items, sigs, st, sg); }));
        rows.push_back(pq_bench_measure(o, to_string(set), "verify", b, threads, vf,
                                        [&] { mldsa_verify_batch(set, verify_items, ok, vf); }));
        for (uint8_t v : ok)
          if (v != 1) throw Error(ErrorCode::InvalidArgument, "mldsa bench: a fresh signature did not verify");
      }
  }
  pq_bench_print(o, "mldsa", rows);
  return 0;
}

}  // namespace

void add_mldsa_command(CLI::App& app) {
  auto* dsa = app.add_subcommand("mldsa", "ML-DSA (FIPS 204): lines of ':'-separated hex on stdin");
  dsa->require_subcommand(1);
  auto add = [&](const char* name, const char* help, int (*fn)(const DsaOptions&)) {
    auto* c = dsa->add_subcommand(name, help);
    auto o = std::make_shared<DsaOptions>();
    add_choice(c, "--set", o->set, dsa_set_names(), "Parameter set (ML-DSA-44, -65 or -87)");
    add_common_options(c, {.backend = &o->backend});
    c->callback([fn, o] {
      const int rc = fn(*o);
      if (rc != 0) throw CLI::RuntimeError(rc);
    });
  };
  add("keygen", "xi -> pk:sk (xi: 32 bytes)", run_keygen);
  add("sign", "sk:msg:ctx:rnd -> sig (empty rnd: deterministic), or `error`", run_sign);
  add("verify", "pk:msg:ctx:sig -> 1 or 0", run_verify);
  auto bo = std::make_shared<PqBenchOptions>();
  auto* bench = dsa->add_subcommand("bench", "Throughput vs batch size (keygen, sign, verify)");
  add_pq_bench_flags(bench, *bo, {"44", "65", "87"});
  bench->callback([bo] {
    const int rc = run_bench(*bo);
    if (rc != 0) throw CLI::RuntimeError(rc);
  });
}

}  // namespace zkgpu::cli

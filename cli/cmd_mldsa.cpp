// `zkgpu mldsa keygen|sign|verify|bench`: line-oriented ML-DSA for scripts and cross-checks.
// Input lines are ':'-separated hex fields; each gives one output line. Keygen and sign answer
// `error` for an item they reject (wrong lengths, context over 255 bytes, malformed sk); verify
// answers 0 for anything that is not a valid signature, wrong lengths included. Exit status 0 when
// no item is rejected, 1 when some is; an unparsable line is reported on stderr with exit status 2
// and no output; empty input gives a notice on stderr.
#include <iostream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "io/hex_lines.hpp"
#include "pq_bench.hpp"
#include "zkgpu/mldsa.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu::cli {

namespace {

struct DsaOptions {
  std::string set = "65";
  std::string backend = "auto";
};

MlDsaSet dsa_set(const std::string& s) {
  auto set = parse_mldsa_set(s);
  if (!set) throw_invalid("--set must be 44, 65 or 87");
  return *set;
}
Backend dsa_backend(const std::string& s) {
  auto b = parse_backend(s);
  if (!b) throw_invalid("--backend must be cpu, cuda or auto");
  return *b;
}

// `xi` -> `pk:sk`.
int run_keygen(const DsaOptions& o) {
  const MlDsaSet set = dsa_set(o.set);
  const Backend backend = dsa_backend(o.backend);
  std::vector<std::vector<Bytes>> lines;
  if (!read_hex_lines(std::cin, 1, lines)) return EXIT_USAGE;
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
  mldsa_keygen_batch(set, seeds, pk, sk, backend);
  std::string out;
  size_t rejected = 0;
  for (size_t i : idx) {
    rejected += i == SIZE_MAX;
    out += i == SIZE_MAX ? "error\n" : to_hex(&pk[i * sz.pk], sz.pk) + ":" + to_hex(&sk[i * sz.sk], sz.sk) + "\n";
  }
  return finish_items("mldsa keygen", out, idx.size(), rejected);
}

// `sk:msg:ctx:rnd` -> `sig` (empty rnd: deterministic).
int run_sign(const DsaOptions& o) {
  const MlDsaSet set = dsa_set(o.set);
  const Backend backend = dsa_backend(o.backend);
  std::vector<std::vector<Bytes>> lines;
  if (!read_hex_lines(std::cin, 4, lines)) return EXIT_USAGE;
  const MlDsaSizes sz = mldsa_sizes(set);
  std::vector<MlDsaSignItem> items;
  for (const auto& f : lines) items.push_back({f[0], f[1], f[2], f[3], false});
  Bytes sigs(items.size() * sz.sig);
  std::vector<PqStatus> st(items.size());
  mldsa_sign_batch(set, items, sigs, st, backend);
  std::string out;
  size_t rejected = 0;
  for (size_t i = 0; i < items.size(); ++i) {
    rejected += st[i] != PqStatus::Ok;
    out += st[i] == PqStatus::Ok ? to_hex(&sigs[i * sz.sig], sz.sig) + "\n" : "error\n";
  }
  return finish_items("mldsa sign", out, items.size(), rejected);
}

// `pk:msg:ctx:sig` -> `1` or `0`.
int run_verify(const DsaOptions& o) {
  const MlDsaSet set = dsa_set(o.set);
  const Backend backend = dsa_backend(o.backend);
  std::vector<std::vector<Bytes>> lines;
  if (!read_hex_lines(std::cin, 4, lines)) return EXIT_USAGE;
  std::vector<MlDsaVerifyItem> items;
  for (const auto& f : lines) items.push_back({f[0], f[1], f[2], f[3], false});
  std::vector<uint8_t> ok(items.size());
  mldsa_verify_batch(set, items, ok, backend);
  return finish_verdicts("mldsa verify", ok);
}

int run_bench(const PqBenchOptions& o) {
  const Backend backend = dsa_backend(o.backend);
  std::vector<MlDsaSet> sets;
  if (o.set == "all")
    sets = {MlDsaSet::MlDsa44, MlDsaSet::MlDsa65, MlDsaSet::MlDsa87};
  else
    sets = {dsa_set(o.set)};
  const int threads = pq_bench_apply_threads(o);
  std::vector<PqBenchRow> rows;
  for (MlDsaSet set : sets) {
    const MlDsaSizes sz = mldsa_sizes(set);
    for (size_t b : pq_bench_batches(o)) {
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
      rows.push_back(pq_bench_measure(o, to_string(set), "keygen", b, threads,
                                      [&] { mldsa_keygen_batch(set, seeds, pk, sk, backend); }));
      rows.push_back(pq_bench_measure(o, to_string(set), "sign", b, threads,
                                      [&] { mldsa_sign_batch(set, sign_items, sigs, st, backend); }));
      rows.push_back(pq_bench_measure(o, to_string(set), "verify", b, threads,
                                      [&] { mldsa_verify_batch(set, verify_items, ok, backend); }));
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
  static DsaOptions o;
  auto add = [&](const char* name, const char* help, int (*fn)(const DsaOptions&)) {
    auto* c = dsa->add_subcommand(name, help);
    c->add_option("--set", o.set, "44, 65 or 87")->check(CLI::IsMember({"44", "65", "87"}));
    c->add_option("--backend", o.backend, "cpu, cuda or auto")->check(CLI::IsMember({"cpu", "cuda", "auto"}));
    c->callback([fn] {
      const int rc = fn(o);
      if (rc != 0) throw CLI::RuntimeError(rc);
    });
  };
  add("keygen", "xi -> pk:sk (xi: 32 bytes)", run_keygen);
  add("sign", "sk:msg:ctx:rnd -> sig (empty rnd: deterministic), or `error`", run_sign);
  add("verify", "pk:msg:ctx:sig -> 1 or 0", run_verify);
  static PqBenchOptions bo;
  auto* bench = dsa->add_subcommand("bench", "Throughput vs batch size (keygen, sign, verify)");
  add_pq_bench_flags(bench, bo);
  bench->callback([] {
    const int rc = run_bench(bo);
    if (rc != 0) throw CLI::RuntimeError(rc);
  });
}

}  // namespace zkgpu::cli

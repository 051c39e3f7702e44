// `zkgpu mlkem keygen|encaps|decaps|bench`: line-oriented ML-KEM for scripts and cross-checks.
// Input lines are ':'-separated hex fields; each gives one output line, or the line `error` for an
// item the standard rejects (wrong lengths, ek not reduced mod q, dk hash mismatch). Exit status
// 0 when no item is rejected, 1 when some is; an unparsable line is reported on stderr with exit
// status 2 and no output; empty input gives a notice on stderr.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "io/hex_lines.hpp"
#include "options.hpp"
#include "pq_bench.hpp"
#include "zkgpu/mlkem.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu::cli {

namespace {

struct KemOptions {
  MlKemSet set = MlKemSet::MlKem768;
  Backend backend = Backend::Auto;
};

const Names<MlKemSet>& kem_set_names() {
  static const Names<MlKemSet> names = {
      {"512", MlKemSet::MlKem512}, {"768", MlKemSet::MlKem768}, {"1024", MlKemSet::MlKem1024}};
  return names;
}

// `d:z` -> `ek:dk`.
int run_keygen(const KemOptions& o) {
  const MlKemSet set = o.set;
  std::vector<std::vector<Bytes>> lines;
  if (!read_hex_stdin(2, lines)) return EXIT_USAGE;
  const MlKemSizes sz = mlkem_sizes(set);
  Bytes seeds;
  std::vector<size_t> idx;  // line -> item, or SIZE_MAX for an `error` line
  for (const auto& f : lines) {
    if (f[0].size() == 32 && f[1].size() == 32) {
      idx.push_back(seeds.size() / 64);
      seeds.insert(seeds.end(), f[0].begin(), f[0].end());
      seeds.insert(seeds.end(), f[1].begin(), f[1].end());
    } else {
      idx.push_back(SIZE_MAX);
    }
  }
  const size_t n = seeds.size() / 64;
  Bytes ek(n * sz.ek), dk(n * sz.dk);
  const Backend ran = backend_that_runs(o.backend, n, MLKEM_KEYGEN_GPU_CROSSOVER_ITEMS);
  mlkem_keygen_batch(set, seeds, ek, dk, ran);
  std::string out;
  size_t rejected = 0;
  for (size_t i : idx) {
    rejected += i == SIZE_MAX;
    out += i == SIZE_MAX ? "error\n" : to_hex(&ek[i * sz.ek], sz.ek) + ":" + to_hex(&dk[i * sz.dk], sz.dk) + "\n";
  }
  return finish_items("mlkem keygen", out, idx.size(), rejected, ran);
}

// `ek:m` -> `c:K`.
int run_encaps(const KemOptions& o) {
  const MlKemSet set = o.set;
  std::vector<std::vector<Bytes>> lines;
  if (!read_hex_stdin(2, lines)) return EXIT_USAGE;
  const MlKemSizes sz = mlkem_sizes(set);
  Bytes ek, m;
  std::vector<size_t> idx;
  for (const auto& f : lines) {
    if (f[0].size() == sz.ek && f[1].size() == 32) {
      idx.push_back(m.size() / 32);
      ek.insert(ek.end(), f[0].begin(), f[0].end());
      m.insert(m.end(), f[1].begin(), f[1].end());
    } else {
      idx.push_back(SIZE_MAX);
    }
  }
  const size_t n = m.size() / 32;
  Bytes c(n * sz.ct), k(n * 32);
  std::vector<PqStatus> st(n);
  const Backend ran = backend_that_runs(o.backend, n, MLKEM_GPU_CROSSOVER_ITEMS);
  mlkem_encaps_batch(set, ek, m, c, k, st, ran);
  std::string out;
  size_t rejected = 0;
  for (size_t i : idx) {
    const bool bad = i == SIZE_MAX || st[i] != PqStatus::Ok;
    rejected += bad;
    out += bad ? "error\n" : to_hex(&c[i * sz.ct], sz.ct) + ":" + to_hex(&k[i * 32], 32) + "\n";
  }
  return finish_items("mlkem encaps", out, idx.size(), rejected, ran);
}

// `dk:c` -> `K`.
int run_decaps(const KemOptions& o) {
  const MlKemSet set = o.set;
  std::vector<std::vector<Bytes>> lines;
  if (!read_hex_stdin(2, lines)) return EXIT_USAGE;
  const MlKemSizes sz = mlkem_sizes(set);
  Bytes dk, c;
  std::vector<size_t> idx;
  for (const auto& f : lines) {
    if (f[0].size() == sz.dk && f[1].size() == sz.ct) {
      idx.push_back(c.size() / sz.ct);
      dk.insert(dk.end(), f[0].begin(), f[0].end());
      c.insert(c.end(), f[1].begin(), f[1].end());
    } else {
      idx.push_back(SIZE_MAX);
    }
  }
  const size_t n = c.size() / sz.ct;
  Bytes k(n * 32);
  std::vector<PqStatus> st(n);
  const Backend ran = backend_that_runs(o.backend, n, MLKEM_GPU_CROSSOVER_ITEMS);
  mlkem_decaps_batch(set, dk, c, k, st, ran);
  std::string out;
  size_t rejected = 0;
  for (size_t i : idx) {
    const bool bad = i == SIZE_MAX || st[i] != PqStatus::Ok;
    rejected += bad;
    out += bad ? "error\n" : to_hex(&k[i * 32], 32) + "\n";
  }
  return finish_items("mlkem decaps", out, idx.size(), rejected, ran);
}

int run_bench(const PqBenchOptions& o) {
  std::vector<MlKemSet> sets;
  for (const auto& [name, set] : kem_set_names())
    if (o.set == "all" || o.set == name) sets.push_back(set);
  const std::vector<Backend> backends = pq_bench_backends(o, "mlkem bench");
  const int threads = pq_bench_apply_threads(o);
  std::vector<PqBenchRow> rows;
  for (MlKemSet set : sets) {
    const MlKemSizes sz = mlkem_sizes(set);
    for (size_t b : pq_bench_batches(o))
      for (Backend backend : backends) {
        Bytes seeds(b * 64), ek(b * sz.ek), dk(b * sz.dk), m(b * 32), c(b * sz.ct), k(b * 32), k2(b * 32);
        std::vector<PqStatus> st(b);
        fill_random(seeds.data(), seeds.size());
        fill_random(m.data(), m.size());
        const Backend kg = backend_that_runs(backend, b, MLKEM_KEYGEN_GPU_CROSSOVER_ITEMS);
        const Backend kem = backend_that_runs(backend, b, MLKEM_GPU_CROSSOVER_ITEMS);
        rows.push_back(pq_bench_measure(o, to_string(set), "keygen", b, threads, kg,
                                        [&] { mlkem_keygen_batch(set, seeds, ek, dk, kg); }));
        rows.push_back(pq_bench_measure(o, to_string(set), "encaps", b, threads, kem,
                                        [&] { mlkem_encaps_batch(set, ek, m, c, k, st, kem); }));
        rows.push_back(pq_bench_measure(o, to_string(set), "decaps", b, threads, kem,
                                        [&] { mlkem_decaps_batch(set, dk, c, k2, st, kem); }));
        if (k != k2)
          throw Error(ErrorCode::InvalidArgument, "mlkem bench: decapsulated keys differ from encapsulated ones");
      }
  }
  pq_bench_print(o, "mlkem", rows);
  return 0;
}

}  // namespace

void add_mlkem_command(CLI::App& app) {
  auto* kem = app.add_subcommand("mlkem", "ML-KEM (FIPS 203): lines of ':'-separated hex on stdin");
  kem->require_subcommand(1);
  auto add = [&](const char* name, const char* help, int (*fn)(const KemOptions&)) {
    auto* c = kem->add_subcommand(name, help);
    auto o = std::make_shared<KemOptions>();
    add_choice(c, "--set", o->set, kem_set_names(), "Parameter set (ML-KEM-512, -768 or -1024)");
    add_common_options(c, {.backend = &o->backend});
    c->callback([fn, o] {
      const int rc = fn(*o);
      if (rc != 0) throw CLI::RuntimeError(rc);
    });
  };
  add("keygen", "d:z -> ek:dk (d, z: 32 bytes each)", run_keygen);
  add("encaps", "ek:m -> c:K, or `error` for an invalid or wrong-length ek", run_encaps);
  add("decaps", "dk:c -> K, or `error` for a wrong-length or inconsistent dk or c", run_decaps);
  auto bo = std::make_shared<PqBenchOptions>();
  auto* bench = kem->add_subcommand("bench", "Throughput vs batch size (keygen, encaps, decaps)");
  add_pq_bench_flags(bench, *bo, {"512", "768", "1024"});
  bench->callback([bo] {
    const int rc = run_bench(*bo);
    if (rc != 0) throw CLI::RuntimeError(rc);
  });
}

}  // namespace zkgpu::cli

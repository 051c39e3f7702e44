// The GPU backend of the WHIR prover (see backend.hpp). One stream; the host waits only where the
// transcript needs a value (a root, a sumcheck pair, an OOD answer, openings, the final tables).
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "merkle/cuda/merkle.cuh"
#include "pow/cuda/pow.cuh"
#include "ntt/cuda/ntt.cuh"
#include "runtime/cuda/context.cuh"
#include "runtime/cuda/phase_profiler.cuh"
#include "whir/cuda/backend.hpp"
#include "whir/cuda/kernels.cuh"
#include "whir/poly.hpp"
#include "zkgpu/pow.hpp"

namespace zkgpu::whir::cuda {
namespace {

using detail::ProverBackend;
using detail::ProverShape;
using zkgpu::cuda::ArenaBuffer;
using zkgpu::cuda::PinnedBuffer;

// Small buffers (reduction partials, eq tables, query indices, openings) are not in the plan.
constexpr size_t SMALL_MARGIN_BYTES = size_t(64) << 20;

// Element counts of the big buffers of one prove.
struct Plan {
  size_t tbase = 0, tef = 0, w = 0, coef = 0, scratch = 0, code[2] = {0, 0}, nodes[2] = {0, 0};

  size_t bytes() const {
    return (tbase + coef + scratch + code[0] + code[1]) * sizeof(BabyBear) + (tef + w) * sizeof(EF) +
           (nodes[0] + nodes[1]) * sizeof(Digest);
  }
};

Plan plan_for(const ProverShape& s) {
  if (s.num_variables > BabyBear::TWO_ADICITY + 3)
    throw_invalid("GPU WHIR prover: 2^" + std::to_string(s.num_variables) + " variables is beyond its limit");
  Plan p;
  const unsigned n = s.num_variables;
  p.tbase = size_t(1) << n;
  p.w = size_t(1) << n;
  p.tef = n >= 1 ? size_t(1) << (n - 1) : 1;
  for (size_t i = 0; i < s.commits.size(); ++i) {
    const ProverShape::Commit& c = s.commits[i];
    if (c.k > c.m || c.log_height < c.m - c.k || c.log_height > BabyBear::TWO_ADICITY)
      throw_invalid("GPU WHIR prover: commitment " + std::to_string(i) + " has an impossible shape");
    const size_t words = c.ext ? 4 : 1, cols = words << c.k, rows = size_t(1) << c.log_height;
    p.coef = std::max(p.coef, words << c.m);
    p.scratch = std::max(p.scratch, zkgpu::cuda::lde_scratch_elems(c.m - c.k, cols, c.log_height - (c.m - c.k)));
    p.code[i % 2] = std::max(p.code[i % 2], cols * rows);
    p.nodes[i % 2] = std::max(p.nodes[i % 2], 2 * rows - 1);
  }
  return p;
}

template <class T>
void ensure_pinned(PinnedBuffer<T>& b, size_t n) {
  if (b.size() < n) {
    b = PinnedBuffer<T>();  // free the old one first
    b = PinnedBuffer<T>(n);
  }
}

// The prover's context on one device, reused across proves (allocation and pinning cost
// milliseconds at these sizes): one stream, the witness's uploader, the tables, codewords and trees
// in the arena.
struct Workspace {
  zkgpu::cuda::GpuContext gpu{"the GPU WHIR prover", 1};
  zkgpu::cuda::DeviceArena& arena() { return gpu.arena(); }
  ArenaBuffer<BabyBear> tbase{arena()}, coef{arena()}, scratch{arena()};
  ArenaBuffer<BabyBear> code[2] = {ArenaBuffer<BabyBear>(arena()), ArenaBuffer<BabyBear>(arena())};
  ArenaBuffer<EF> tef{arena()}, w{arena()};
  ArenaBuffer<Digest> nodes[2] = {ArenaBuffer<Digest>(arena()), ArenaBuffer<Digest>(arena())};
  ArenaBuffer<EF> partials{arena()}, eval_partials{arena()}, sums{arena()}, aux{arena()};
  ArenaBuffer<BabyBear> zs{arena()}, opened{arena()};
  ArenaBuffer<uint64_t> indices{arena()};
  PinnedBuffer<uint32_t> host;  // every download
};

template <class T>
size_t shortfall(const ArenaBuffer<T>& b, size_t n) {
  return n > b.size() ? (n - b.size()) * sizeof(T) : 0;
}

// Witnesses above 4 MiB go through the pinned uploader: pageable transfers run at a fraction of
// the link's speed. Its chunks of 8 MiB are split by the copy threads into slices of 1 MiB or more
// (as many threads as copied the 4 MiB chunks of the former per-thread scheme at once), and the
// upload of one chunk overlaps the copy of the next.
void upload_witness(Workspace& ws, const BabyBear* host, size_t n, BabyBear* dev, cudaStream_t s) {
  constexpr size_t DIRECT_MAX = size_t(1) << 20, CHUNK = size_t(1) << 21;  // words
  if (n <= DIRECT_MAX) {
    ZKGPU_CUDA_CHECK(cudaMemcpyAsync(dev, host, n * sizeof(BabyBear), cudaMemcpyHostToDevice, s));
    return;
  }
  ws.gpu.uploader().upload(s, dev, host, n, CHUNK);
}

enum Stage { Upload, Transpose, Lde, Merkle, Sumcheck, Weights, Evaluate, Open, Download, Pow, N_STAGES };
constexpr const char* STAGE_NAMES[N_STAGES] = {"upload",  "transpose", "lde",  "merkle",   "sumcheck",
                                               "weights", "ood-eval",  "open", "download", "gpu-pow"};

class CudaBackend final : public ProverBackend {
 public:
  CudaBackend(std::span<const BabyBear> evals, const ProverShape& shape, const Poseidon2Params<16>& p2,
              const BackendOptions& options)
      : ws_(zkgpu::cuda::context_cache<Workspace>().acquire()), shape_(shape), p2_(p2) {
    n_ = shape.num_variables;
    m_ = n_;
    if (evals.size() != (size_t(1) << n_)) throw_invalid("GPU WHIR prover: the witness size disagrees with the shape");
    ws_->gpu.begin_call(options.memory_budget);
    const Plan plan = plan_for(shape);
    size_t missing = SMALL_MARGIN_BYTES;
    missing += shortfall(ws_->tbase, plan.tbase) + shortfall(ws_->tef, plan.tef) + shortfall(ws_->w, plan.w) +
               shortfall(ws_->coef, plan.coef) + shortfall(ws_->scratch, plan.scratch);
    for (int i = 0; i < 2; ++i)
      missing += shortfall(ws_->code[i], plan.code[i]) + shortfall(ws_->nodes[i], plan.nodes[i]);
    char what[160];
    std::snprintf(what, sizeof what, "the GPU WHIR prover for 2^%u variables (%.2f GiB in all)", n_,
                  double(plan.bytes() + SMALL_MARGIN_BYTES) / 1073741824.0);
    ws_->arena().make_room(plan.bytes() + SMALL_MARGIN_BYTES, missing, what);
    s_ = ws_->gpu.stream();
    phases_.emplace(options.phase_times, s_);
    ws_->tbase.ensure(plan.tbase);
    ws_->tef.ensure(plan.tef);
    ws_->w.ensure(plan.w);
    ws_->coef.ensure(plan.coef);
    ws_->scratch.ensure(plan.scratch);
    for (int i = 0; i < 2; ++i) {
      ws_->code[i].ensure(plan.code[i]);
      ws_->nodes[i].ensure(plan.nodes[i]);
    }
    ws_->partials.ensure(PARTIALS_ELEMS);
    ws_->eval_partials.ensure(PARTIALS_ELEMS);
    ws_->sums.ensure(2);
    ensure_pinned(ws_->host, 64);
    if (options.workspace_poison) ws_->arena().poison(s_);
    {
      StageTimer t(*this, Upload);
      upload_witness(*ws_, evals.data(), evals.size(), ws_->tbase.data(), s_);
      ZKGPU_CUDA_CHECK(cudaMemsetAsync(ws_->w.data(), 0, (size_t(1) << n_) * sizeof(EF), s_));  // EF zero: zero words
    }
  }

  // Reports the phases of a prove that ran to its end; one that threw reports nothing.
  ~CudaBackend() override {
    if (!phases_ || std::uncaught_exceptions() > exceptions_) return;
    try {
      phases_->finish();
    } catch (...) {
      // a destructor must not throw; the failure already surfaced in the call that caused it
    }
  }

  Digest commit(unsigned k, unsigned log_height) override {
    if (n_commits_ >= shape_.commits.size())
      throw_invalid("GPU WHIR prover: more commitments than the planned shape holds");
    const ProverShape::Commit& c = shape_.commits[n_commits_];
    if (c.k != k || c.log_height != log_height || c.m != m_ || c.ext != ext_)
      throw_invalid("GPU WHIR prover: commitment " + std::to_string(n_commits_) + " differs from the planned shape");
    const size_t slot = n_commits_ % 2;
    const unsigned log_rows_in = m_ - k;
    const size_t rows_in = size_t(1) << log_rows_in, cols = size_t(1) << k;
    const size_t word_cols = ext_ ? 4 * cols : cols;
    const size_t rows = size_t(1) << log_height;
    {
      StageTimer t(*this, Transpose);
      if (ext_)
        transpose_device(ws_->tef.data(), reinterpret_cast<EF*>(ws_->coef.data()), rows_in, cols, s_);
      else
        transpose_device(ws_->tbase.data(), ws_->coef.data(), rows_in, cols, s_);
    }
    {
      StageTimer t(*this, Lde);
      zkgpu::cuda::lde_from_coeffs_device(ws_->coef.data(), log_rows_in, word_cols, log_height - log_rows_in,
                                          BabyBear::one(), ws_->code[slot].data(), ws_->scratch.data(), s_);
    }
    {
      StageTimer t(*this, Merkle);
      zkgpu::cuda::merkle_build_device(ws_->code[slot].data(), rows, word_cols, p2_, ws_->nodes[slot].data(), s_);
    }
    trees_[slot] = {n_commits_, rows, word_cols, true};
    ++n_commits_;
    Digest root;
    {
      StageTimer t(*this, Download);
      download(ws_->nodes[slot].data() + (2 * rows - 2), 1);
      std::memcpy(root.e, ws_->host.data(), sizeof(Digest));
    }
    return root;
  }

  std::vector<MerkleOpening> open(size_t tree, std::span<const size_t> indices) override {
    int slot = -1;
    for (int i = 0; i < 2; ++i)
      if (trees_[i].valid && trees_[i].id == tree) slot = i;
    if (slot < 0)
      throw_invalid("GPU WHIR prover: commitment " + std::to_string(tree) + " is not held (" +
                    std::to_string(n_commits_) + " made)");
    const TreeInfo& ti = trees_[slot];
    std::vector<MerkleOpening> out(indices.size());
    if (indices.empty()) return out;
    std::vector<uint64_t> idx(indices.begin(), indices.end());
    for (uint64_t q : idx)
      if (q >= ti.rows)
        throw_invalid("GPU WHIR prover: opening index " + std::to_string(q) + " is out of range (" +
                      std::to_string(ti.rows) + " rows)");
    unsigned log_rows = 0;
    while ((size_t(1) << log_rows) < ti.rows) ++log_rows;
    const size_t stride = ti.cols + 8 * size_t(log_rows), words = stride * idx.size();
    StageTimer t(*this, Open);
    ws_->indices.ensure(idx.size());
    ws_->opened.ensure(words);
    ws_->indices.upload(idx.data(), idx.size(), s_);
    open_rows_device(ws_->code[slot].data(), ti.rows, ti.cols, ws_->nodes[slot].data(), ws_->indices.data(), idx.size(),
                     ws_->opened.data(), s_);
    download(ws_->opened.data(), words);
    const BabyBear* h = reinterpret_cast<const BabyBear*>(ws_->host.data());
    for (size_t i = 0; i < idx.size(); ++i) {
      const BabyBear* src = h + i * stride;
      out[i].row.assign(src, src + ti.cols);
      out[i].siblings.resize(log_rows);
      std::memcpy(out[i].siblings.data(), src + ti.cols, size_t(log_rows) * sizeof(Digest));
    }
    return out;
  }

  std::pair<EF, EF> sumcheck_coeffs() override {
    if (m_ == 0) throw_invalid("GPU WHIR prover: no variable left for a sumcheck round");
    StageTimer t(*this, Sumcheck);
    const size_t len = size_t(1) << m_;
    unsigned pairs = cached_pairs_;
    if (pairs == 0)
      pairs = ext_ ? sumcheck_partials_device(ws_->tef.data(), ws_->w.data(), len, ws_->partials.data(), s_)
                   : sumcheck_partials_device(ws_->tbase.data(), ws_->w.data(), len, ws_->partials.data(), s_);
    reduce_partials_device(ws_->partials.data(), pairs, ws_->sums.data(), s_);
    download(ws_->sums.data(), 2);
    const EF* h = reinterpret_cast<const EF*>(ws_->host.data());
    return {h[0], h[1]};
  }

  void bind(const EF& r) override {
    if (m_ == 0) throw_invalid("GPU WHIR prover: no variable left to bind");
    StageTimer t(*this, Sumcheck);
    const size_t len = size_t(1) << m_;
    cached_pairs_ =
        ext_ ? bind_device(ws_->tef.data(), ws_->tef.data(), ws_->w.data(), len, r, ws_->partials.data(), s_)
             : bind_device(ws_->tbase.data(), ws_->tef.data(), ws_->w.data(), len, r, ws_->partials.data(), s_);
    ext_ = true;
    --m_;
  }

  void add_weights(std::span<const std::vector<EF>> eq_points, std::span<const EF> eq_scales,
                   std::span<const BabyBear> zs, std::span<const EF> select_scales) override {
    if (eq_points.size() != eq_scales.size() || zs.size() != select_scales.size())
      throw_invalid("GPU WHIR prover: add_weights needs one scale per point");
    if (eq_points.empty() && zs.empty()) return;
    StageTimer t(*this, Weights);
    const unsigned lo_bits = m_ / 2, hi_bits = m_ - lo_bits;
    const size_t hi_len = size_t(1) << hi_bits, lo_len = size_t(1) << lo_bits;
    // aux = [hi tables | lo tables | select scales]
    std::vector<EF> aux;
    aux.reserve(eq_points.size() * (hi_len + lo_len) + zs.size());
    std::vector<std::vector<EF>> los;
    for (size_t p = 0; p < eq_points.size(); ++p) {
      const std::span<const EF> pt(eq_points[p]);
      if (pt.size() != m_)
        throw_invalid("GPU WHIR prover: an eq point has " + std::to_string(pt.size()) + " coordinates, expected " +
                      std::to_string(m_));
      const std::vector<EF> hi = poly::eq_table(pt.subspan(0, hi_bits), eq_scales[p]);
      aux.insert(aux.end(), hi.begin(), hi.end());
      los.push_back(poly::eq_table(pt.subspan(hi_bits), EF::one()));
    }
    for (const std::vector<EF>& lo : los) aux.insert(aux.end(), lo.begin(), lo.end());
    aux.insert(aux.end(), select_scales.begin(), select_scales.end());
    ws_->aux.ensure(aux.size());
    ws_->aux.upload(aux.data(), aux.size(), s_);
    if (!zs.empty()) {
      ws_->zs.ensure(zs.size());
      ws_->zs.upload(zs.data(), zs.size(), s_);
    }
    WeightsArgs a;
    a.w = ws_->w.data();
    a.len = size_t(1) << m_;
    a.lo_bits = lo_bits;
    a.n_eq = static_cast<unsigned>(eq_points.size());
    a.hi = ws_->aux.data();
    a.lo = ws_->aux.data() + eq_points.size() * hi_len;
    a.n_sel = static_cast<unsigned>(zs.size());
    a.z = ws_->zs.data();
    a.scale = ws_->aux.data() + eq_points.size() * (hi_len + lo_len);
    add_weights_device(a, s_);
    cached_pairs_ = 0;  // W changed
  }

  EF evaluate(std::span<const EF> point) override {
    if (point.size() != m_)
      throw_invalid("GPU WHIR prover: an evaluation point has " + std::to_string(point.size()) +
                    " coordinates, expected " + std::to_string(m_));
    StageTimer t(*this, Evaluate);
    const unsigned lo_bits = m_ / 2, hi_bits = m_ - lo_bits;
    std::vector<EF> aux = poly::eq_table(point.subspan(0, hi_bits), EF::one());
    const std::vector<EF> lo = poly::eq_table(point.subspan(hi_bits), EF::one());
    const size_t hi_len = aux.size();
    aux.insert(aux.end(), lo.begin(), lo.end());
    ws_->aux.ensure(aux.size());
    ws_->aux.upload(aux.data(), aux.size(), s_);
    const size_t len = size_t(1) << m_;
    const EF* hi_d = ws_->aux.data();
    const EF* lo_d = ws_->aux.data() + hi_len;
    // Its own partials buffer: the sumcheck's cached ones stay valid.
    EF* part = ws_->eval_partials.data();
    const unsigned pairs = ext_ ? eq_dot_partials_device(ws_->tef.data(), len, hi_d, lo_d, lo_bits, part, s_)
                                : eq_dot_partials_device(ws_->tbase.data(), len, hi_d, lo_d, lo_bits, part, s_);
    reduce_partials_device(part, pairs, ws_->sums.data(), s_);
    download(ws_->sums.data(), 1);
    return reinterpret_cast<const EF*>(ws_->host.data())[0];
  }

  std::vector<EF> table() override {
    if (!ext_) throw_invalid("GPU WHIR prover: the table is still the base-field witness");
    return download_ef(ws_->tef.data(), size_t(1) << m_);
  }
  std::vector<EF> weights() override { return download_ef(ws_->w.data(), size_t(1) << m_); }

  // On this stream from POW_GPU_CROSSOVER_BITS up; below it the CPU search finishes before a launch would.
  std::optional<uint32_t> grind(const PowInput& in) override {
    if (in.bits < POW_GPU_CROSSOVER_BITS) return std::nullopt;
    StageTimer t(*this, Pow);
    return zkgpu::cuda::pow_grind_device(in, p2_, true, s_);
  }

 private:
  struct TreeInfo {
    size_t id = 0, rows = 0, cols = 0;
    bool valid = false;
  };

  // Marks a stage on the stream: what ran since the last stage is "host", the stage's own work is
  // named after it (no-ops without a PhaseTimes).
  class StageTimer {
   public:
    StageTimer(CudaBackend& b, Stage st) : b_(b), st_(st) { b_.phases_->mark("host"); }
    ~StageTimer() {
      if (std::uncaught_exceptions() > exceptions_) return;  // the stage threw: nothing is reported
      try {
        b_.phases_->mark(STAGE_NAMES[st_]);
      } catch (...) {
        // a destructor must not throw; a failing event record means the stream has failed, which
        // the prove's next CUDA call reports
      }
    }

   private:
    CudaBackend& b_;
    Stage st_;
    int exceptions_ = std::uncaught_exceptions();
  };

  // n words from the device into ws_->host, then waits for the stream.
  template <class T>
  // Copies n elements of T (not words) into the pinned host buffer and waits for them.
  void download(const T* d, size_t n) {
    static_assert(sizeof(T) % 4 == 0, "device values are whole words");
    const size_t words = n * (sizeof(T) / 4);
    ensure_pinned(ws_->host, words);
    ZKGPU_CUDA_CHECK(cudaMemcpyAsync(ws_->host.data(), d, words * 4, cudaMemcpyDeviceToHost, s_));
    ZKGPU_CUDA_CHECK(cudaStreamSynchronize(s_));
  }

  std::vector<EF> download_ef(const EF* d, size_t n) {
    StageTimer t(*this, Download);
    download(d, n);
    std::vector<EF> out(n);
    std::memcpy(out.data(), ws_->host.data(), n * sizeof(EF));
    return out;
  }

  zkgpu::cuda::ContextCache<Workspace>::Lease ws_;  // held for the prove: one prove at a time per device
  ProverShape shape_;
  Poseidon2Params<16> p2_;
  cudaStream_t s_ = nullptr;
  std::optional<zkgpu::cuda::PhaseProfiler> phases_;  // from the stream's creation on
  int exceptions_ = std::uncaught_exceptions();       // in flight when the prove began
  unsigned n_ = 0, m_ = 0;
  bool ext_ = false;           // x_0 has been bound: T lives in ws_->tef
  unsigned cached_pairs_ = 0;  // partials of the current round's (h(0), h(2)) left by the last bind
  TreeInfo trees_[2];
  size_t n_commits_ = 0;
};

}  // namespace

size_t memory_need(const ProverShape& shape) { return plan_for(shape).bytes() + SMALL_MARGIN_BYTES; }

std::unique_ptr<ProverBackend> make_backend(std::span<const BabyBear> evals, const ProverShape& shape,
                                            const Poseidon2Params<16>& p2, const BackendOptions& options) {
  return std::make_unique<CudaBackend>(evals, shape, p2, options);
}

void release_workspace() { zkgpu::cuda::context_cache<Workspace>().release(); }

}  // namespace zkgpu::whir::cuda

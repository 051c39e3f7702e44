// The batch pipeline's slots (batch_pipeline.cuh).
#include "runtime/cuda/batch_pipeline.cuh"

namespace zkgpu::cuda {

namespace {
template <size_t... I>
std::array<BatchSlot, sizeof...(I)> make_slots(DeviceArena& arena, std::index_sequence<I...>) {
  return {{(static_cast<void>(I), BatchSlot(arena))...}};
}
}  // namespace

BatchPipeline::BatchPipeline(GpuContext& gpu)
    : arena_(gpu.arena()), slots_(make_slots(gpu.arena(), std::make_index_sequence<SLOTS>())) {
  for (int i = 0; i < SLOTS; ++i) slots_[size_t(i)].stream = gpu.stream(unsigned(i));
}

void BatchPipeline::fit_budget() {
  const uint64_t share = runtime::slot_share(arena_.budget(), SLOTS);
  if (!share) return;
  for (const BatchSlot& s : slots_)
    if (s.dev.bytes() > share) {
      for (BatchSlot& t : slots_) t.dev.reset();
      return;
    }
}

void BatchPipeline::ensure(BatchSlot& s, const ChunkPlan& p) {
  if (s.host_in.size() < p.in_bytes) s.host_in = PinnedBuffer<uint8_t>(std::max(p.in_bytes, 2 * s.host_in.size()));
  if (s.host_out.size() < p.out_bytes) s.host_out = PinnedBuffer<uint8_t>(std::max(p.out_bytes, 2 * s.host_out.size()));
  // Without a budget the block follows the staging's doubling, as its separate buffers did.
  s.dev.ensure(slot_bytes(p), align(s.host_in.size()) + align(s.host_out.size()) + p.scratch_bytes);
  s.dev_in = s.dev.data();
  s.dev_out = s.dev_in + align(p.in_bytes);
  s.dev_scratch = s.dev_out + align(p.out_bytes);
}

void BatchPipeline::finish(BatchSlot& s, PhaseTimes* out) {
  if (!s.busy) return;
  ZKGPU_CUDA_CHECK(cudaStreamSynchronize(s.stream));
  s.deliver(s.host_out.data());
  s.deliver = nullptr;
  if (out) {
    s.phases->finish();
    out->phases.insert(out->phases.end(), s.chunk_times.phases.begin(), s.chunk_times.phases.end());
  }
  s.phases.reset();
  s.busy = false;
}

}  // namespace zkgpu::cuda

// The one phase profiler of the GPU host layer: CUDA events between named phases of an operation
// on its stream, reported into the caller's PhaseTimes (include/zkgpu/profile.hpp). With a null
// PhaseTimes every call is a no-op, so operations mark their phases unconditionally.
#pragma once
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "runtime/cuda/runtime.cuh"
#include "zkgpu/profile.hpp"

namespace zkgpu::cuda {

class PhaseProfiler {
 public:
  PhaseProfiler(PhaseTimes* out, cudaStream_t stream) : out_(out), stream_(stream) {
    if (!out_) return;
    t0_ = std::chrono::steady_clock::now();
    mark("");
  }
  PhaseProfiler(const PhaseProfiler&) = delete;
  PhaseProfiler& operator=(const PhaseProfiler&) = delete;

  bool on() const { return out_ != nullptr; }
  // Ends the phase in progress, which is named `phase_done` (the first mark only starts the clock).
  void mark(const char* phase_done) {
    if (!out_) return;
    events_.push_back(std::make_unique<Event>());
    names_.emplace_back(phase_done);
    events_.back()->record(stream_);
  }
  // Waits for the last mark and writes the phases into the caller's PhaseTimes (appending, so one
  // PhaseTimes can collect the chunks of a long batch).
  void finish() {
    if (!out_ || done_) return;
    done_ = true;
    events_.back()->sync();
    for (size_t i = 1; i < events_.size(); ++i)
      out_->phases.emplace_back(names_[i], events_[i]->since(*events_[i - 1]));
    out_->wall_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0_).count();
  }

 private:
  PhaseTimes* out_;
  cudaStream_t stream_;
  bool done_ = false;
  std::chrono::steady_clock::time_point t0_;
  std::vector<std::unique_ptr<Event>> events_;
  std::vector<std::string> names_;
};

}  // namespace zkgpu::cuda

// The host thread that loads the slices after the first of one GPU MSM (msm.cu).
#pragma once
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <utility>

#include "zkgpu/status.hpp"

namespace zkgpu::bls12_377::cuda {

// A host thread that loads slices 1.. of an MSM (msm_on_device): loaded(k) after queuing slice k,
// wait_for(k) until then; an exception on the thread comes back from wait_for or finish. The
// destructor joins the thread, so the thread never outlives the MSM's buffers, also when the
// MSM's own thread throws.
class SliceLoader {
 public:
  SliceLoader() = default;
  SliceLoader(const SliceLoader&) = delete;
  SliceLoader& operator=(const SliceLoader&) = delete;
  ~SliceLoader() {
    if (thread_.joinable()) thread_.join();
  }
  template <class F>
  void start(F&& body) {
    thread_ = std::thread([this, body = std::forward<F>(body)]() mutable {
      try {
        body();
      } catch (...) {
        std::lock_guard<std::mutex> lk(mu_);
        error_ = std::current_exception();
      }
      std::lock_guard<std::mutex> lk(mu_);
      ended_ = true;
      cv_.notify_all();
    });
  }
  void loaded(size_t k) {
    std::lock_guard<std::mutex> lk(mu_);
    done_ = k + 1;
    cv_.notify_all();
  }
  void wait_for(size_t k) {
    std::unique_lock<std::mutex> lk(mu_);
    cv_.wait(lk, [&] { return done_ > k || ended_; });
    if (done_ > k) return;
    if (error_) std::rethrow_exception(error_);
    throw Error(ErrorCode::CudaError, "MSM slice loader ended early (a bug)");
  }
  void finish() {
    if (!thread_.joinable()) return;
    thread_.join();
    if (error_) std::rethrow_exception(error_);
  }

 private:
  std::thread thread_;
  std::mutex mu_;
  std::condition_variable cv_;
  size_t done_ = 0;
  bool ended_ = false;
  std::exception_ptr error_;
};

}  // namespace zkgpu::bls12_377::cuda

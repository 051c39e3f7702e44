// The copy threads of parallel_memcpy.hpp.
#include "runtime/parallel_memcpy.hpp"

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

namespace zkgpu::runtime {

namespace {

// memcpy with several threads: one core copies pageable memory at about 10 GB/s, a fraction of
// what the PCIe upload behind it takes. With 8 threads started per chunk, the H200 machine's
// uploads ran at 24-27 GB/s (the copy, not PCIe, set the pace), so every core but one copies, on
// threads kept for the process (starting 15 threads per 32 MiB chunk cost tens of microseconds
// each, and a 2^24-point upload has 70 chunks). One copy at a time: copy() holds turn_ while it
// runs, so callers on several threads (two GPU contexts uploading at once) take turns.
class CopyPool {
 public:
  explicit CopyPool(unsigned workers) {
    for (unsigned i = 0; i < workers; ++i) threads_.emplace_back([this, i] { run(i + 1); });
  }
  ~CopyPool() {
    {
      std::lock_guard<std::mutex> lk(mu_);
      stop_ = true;
      ++generation_;
    }
    start_.notify_all();
    for (auto& t : threads_) t.join();
  }
  CopyPool(const CopyPool&) = delete;
  CopyPool& operator=(const CopyPool&) = delete;

  void copy(void* dst, const void* src, size_t bytes) {
    constexpr size_t MIN_SLICE = size_t{1} << 20;
    const size_t parts = std::min<size_t>(threads_.size() + 1, std::max<size_t>(1, bytes / MIN_SLICE));
    if (parts == 1) {
      std::memcpy(dst, src, bytes);
      return;
    }
    std::lock_guard<std::mutex> turn(turn_);
    {
      std::lock_guard<std::mutex> lk(mu_);
      dst_ = static_cast<char*>(dst);
      src_ = static_cast<const char*>(src);
      bytes_ = bytes;
      slice_ = ((bytes + parts - 1) / parts + 63) & ~size_t{63};  // parts * slice_ >= bytes
      parts_ = parts;
      pending_ = threads_.size();
      ++generation_;
    }
    start_.notify_all();
    copy_part(0, dst_, src_, bytes_, slice_);
    std::unique_lock<std::mutex> lk(mu_);
    done_.wait(lk, [&] { return pending_ == 0; });
  }

 private:
  static void copy_part(size_t k, char* dst, const char* src, size_t bytes, size_t slice) {
    const size_t b = std::min(bytes, k * slice), e = std::min(bytes, b + slice);
    if (b < e) std::memcpy(dst + b, src + b, e - b);
  }
  void run(size_t k) {
    uint64_t seen = 0;
    std::unique_lock<std::mutex> lk(mu_);
    for (;;) {
      start_.wait(lk, [&] { return generation_ != seen; });
      seen = generation_;
      if (stop_) return;
      char* dst = dst_;
      const char* src = src_;
      const size_t bytes = bytes_, slice = slice_, parts = parts_;
      lk.unlock();
      if (k < parts) copy_part(k, dst, src, bytes, slice);
      lk.lock();
      if (--pending_ == 0) done_.notify_one();
    }
  }

  std::vector<std::thread> threads_;
  std::mutex turn_;  // one copy at a time on the threads
  std::mutex mu_;
  std::condition_variable start_, done_;
  uint64_t generation_ = 0;
  bool stop_ = false;
  char* dst_ = nullptr;
  const char* src_ = nullptr;
  size_t bytes_ = 0, slice_ = 0, parts_ = 0, pending_ = 0;
};

}  // namespace

void parallel_memcpy(void* dst, const void* src, size_t bytes) {
  // One core is left to the MSM's own thread, which waits for the GPU's counts by spinning while
  // its SliceLoader copies: one copy thread more than cores and each chunk waits for the one that was
  // descheduled (H200 run of 755474c, all 16 cores copying: the 2^24 uploads 3-4x slower).
  static CopyPool pool(std::clamp(std::thread::hardware_concurrency(), 2u, 32u) - 2);
  pool.copy(dst, src, bytes);
}

}  // namespace zkgpu::runtime

#include <sys/random.h>

#include <cerrno>

#include "zkgpu/pq.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu {

void fill_random(uint8_t* buf, size_t len) {
  size_t done = 0;
  while (done < len) {
    const ssize_t r = getrandom(buf + done, len - done, 0);
    if (r < 0) {
      if (errno == EINTR) continue;
      throw Error(ErrorCode::Unavailable, "getrandom failed: the operating system gave no randomness");
    }
    done += size_t(r);
  }
}

}  // namespace zkgpu

// Where a GPU operation's time went, for callers who ask (a PhaseTimes* in the operation's
// options): the library fills it and never prints. A null pointer, the default, costs nothing.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace zkgpu {

struct PhaseTimes {
  // In the order the phases ran: a name ("upload", "bucket sums", ...) and its device time in
  // milliseconds, measured with CUDA events on the operation's stream.
  std::vector<std::pair<std::string, double>> phases;
  double wall_ms = 0;  // host time of the whole call

  double device_ms() const {
    double t = 0;
    for (const auto& p : phases) t += p.second;
    return t;
  }
};

}  // namespace zkgpu

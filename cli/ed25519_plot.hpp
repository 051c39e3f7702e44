// A dependency-free log-log line chart written as a PNG (no text: decades are grid lines, the
// series colours are fixed and listed in docs/ed25519.md).
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace zkgpu::cli {

struct PlotSeries {
  std::string name;
  std::vector<std::pair<double, double>> points;  // (x, y), both > 0
};

// Colours by position: red, orange, blue, green, purple, grey. Throws Error on I/O failure.
void write_loglog_png(const std::string& path, const std::vector<PlotSeries>& series);

}  // namespace zkgpu::cli

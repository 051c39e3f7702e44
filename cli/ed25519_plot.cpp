#include "ed25519_plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>

#include "zkgpu/status.hpp"

namespace zkgpu::cli {
namespace {

constexpr int W = 900, H = 600, MARGIN = 40;

uint32_t crc32(const uint8_t* p, size_t n, uint32_t c = 0xffffffffu) {
  for (size_t i = 0; i < n; ++i) {
    c ^= p[i];
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1)));
  }
  return c;
}

void put_be32(std::vector<uint8_t>& v, uint32_t x) {
  for (int s = 24; s >= 0; s -= 8) v.push_back(static_cast<uint8_t>(x >> s));
}

void chunk(std::ofstream& f, const char* type, const std::vector<uint8_t>& data) {
  std::vector<uint8_t> buf;
  put_be32(buf, static_cast<uint32_t>(data.size()));
  buf.insert(buf.end(), type, type + 4);
  buf.insert(buf.end(), data.begin(), data.end());
  std::vector<uint8_t> crc;
  put_be32(crc, crc32(buf.data() + 4, buf.size() - 4) ^ 0xffffffffu);
  f.write(reinterpret_cast<const char*>(buf.data()), static_cast<std::streamsize>(buf.size()));
  f.write(reinterpret_cast<const char*>(crc.data()), 4);
}

// zlib stream of stored (uncompressed) deflate blocks: valid PNG data without a compressor.
std::vector<uint8_t> zlib_stored(const std::vector<uint8_t>& raw) {
  std::vector<uint8_t> z = {0x78, 0x01};
  for (size_t off = 0; off < raw.size() || off == 0; off += 65535) {
    const size_t len = std::min<size_t>(65535, raw.size() - off);
    z.push_back(off + len >= raw.size() ? 1 : 0);
    z.push_back(static_cast<uint8_t>(len));
    z.push_back(static_cast<uint8_t>(len >> 8));
    z.push_back(static_cast<uint8_t>(~len));
    z.push_back(static_cast<uint8_t>(~len >> 8));
    z.insert(z.end(), raw.begin() + static_cast<std::ptrdiff_t>(off),
             raw.begin() + static_cast<std::ptrdiff_t>(off + len));
    if (raw.empty()) break;
  }
  uint32_t a = 1, b = 0;
  for (uint8_t c : raw) {
    a = (a + c) % 65521;
    b = (b + a) % 65521;
  }
  put_be32(z, (b << 16) | a);
  return z;
}

}  // namespace

void write_loglog_png(const std::string& path, const std::vector<PlotSeries>& series) {
  static const uint8_t colours[][3] = {{220, 30, 30}, {240, 150, 20}, {30, 80, 220},
                                       {20, 160, 60}, {140, 40, 180}, {120, 120, 120}};
  std::vector<uint8_t> img(size_t{W} * H * 3, 255);
  auto px = [&](int x, int y, const uint8_t* c) {
    if (x < 0 || y < 0 || x >= W || y >= H) return;
    std::copy(c, c + 3, &img[(size_t(y) * W + x) * 3]);
  };
  double x0 = 1e300, x1 = 0, y0 = 1e300, y1 = 0;
  for (const auto& s : series)
    for (auto [x, y] : s.points) {
      x0 = std::min(x0, x);
      x1 = std::max(x1, x);
      y0 = std::min(y0, y);
      y1 = std::max(y1, y);
    }
  if (x1 <= 0) throw_invalid("plot: no points to draw");
  const double lx0 = std::floor(std::log10(x0)), lx1 = std::max(lx0 + 1, std::ceil(std::log10(x1)));
  const double ly0 = std::floor(std::log10(y0)), ly1 = std::max(ly0 + 1, std::ceil(std::log10(y1)));
  auto sx = [&](double x) { return MARGIN + int((std::log10(x) - lx0) / (lx1 - lx0) * (W - 2 * MARGIN)); };
  auto sy = [&](double y) { return H - MARGIN - int((std::log10(y) - ly0) / (ly1 - ly0) * (H - 2 * MARGIN)); };
  const uint8_t grid[3] = {225, 225, 225}, axis[3] = {0, 0, 0};
  for (double d = lx0; d <= lx1; ++d)
    for (int y = MARGIN; y <= H - MARGIN; ++y) px(sx(std::pow(10, d)), y, d == lx0 ? axis : grid);
  for (double d = ly0; d <= ly1; ++d)
    for (int x = MARGIN; x <= W - MARGIN; ++x) px(x, sy(std::pow(10, d)), d == ly0 ? axis : grid);
  for (size_t s = 0; s < series.size(); ++s) {
    const uint8_t* c = colours[std::min<size_t>(s, 5)];
    const auto& p = series[s].points;
    for (size_t i = 0; i + 1 < p.size(); ++i) {  // thick segments by dense sampling
      const int ax = sx(p[i].first), ay = sy(p[i].second), bx = sx(p[i + 1].first), by = sy(p[i + 1].second);
      const int steps = std::max(std::abs(bx - ax), std::abs(by - ay)) + 1;
      for (int t = 0; t <= steps; ++t) {
        const int x = ax + (bx - ax) * t / steps, y = ay + (by - ay) * t / steps;
        for (int d = -1; d <= 1; ++d) {
          px(x, y + d, c);
          px(x + d, y, c);
        }
      }
    }
    for (auto [x, y] : p)
      for (int dy = -3; dy <= 3; ++dy)
        for (int dx = -3; dx <= 3; ++dx) px(sx(x) + dx, sy(y) + dy, c);
  }
  std::vector<uint8_t> raw;
  raw.reserve(img.size() + H);
  for (int y = 0; y < H; ++y) {
    raw.push_back(0);  // filter: none
    raw.insert(raw.end(), img.begin() + std::ptrdiff_t(y) * W * 3, img.begin() + std::ptrdiff_t(y + 1) * W * 3);
  }
  std::ofstream f(path, std::ios::binary);
  if (!f) throw_invalid("plot: cannot write " + path);
  static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  f.write(reinterpret_cast<const char*>(sig), 8);
  std::vector<uint8_t> ihdr;
  put_be32(ihdr, W);
  put_be32(ihdr, H);
  ihdr.insert(ihdr.end(), {8, 2, 0, 0, 0});  // 8-bit RGB
  chunk(f, "IHDR", ihdr);
  chunk(f, "IDAT", zlib_stored(raw));
  chunk(f, "IEND", {});
  if (!f) throw_invalid("plot: write to " + path + " failed");
}

}  // namespace zkgpu::cli

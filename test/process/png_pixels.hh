// Just enough of a PNG decoder to tell a drawn chart from a blank one:
// 8-bit RGB or RGBA, not interlaced (what gnuplot's pngcairo writes),
// decoded to its set of distinct colours. Anything else throws.
#pragma once

#include <cstdint>
#include <set>
#include <string>

namespace pm::test {

struct PngImage {
  uint32_t width = 0, height = 0;
  std::set<uint32_t> colours;  // 0xRRGGBB of every pixel (alpha ignored)
};

// Throws std::runtime_error naming what is wrong.
PngImage DecodePng(const std::string& bytes);

}  // namespace pm::test

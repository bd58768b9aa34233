#include "test/process/png_pixels.hh"

#include <zlib.h>

#include <cstdlib>
#include <stdexcept>
#include <vector>

namespace pm::test {
namespace {

uint32_t Be32(const std::string& b, size_t at) {
  return (uint32_t(uint8_t(b[at])) << 24) | (uint32_t(uint8_t(b[at + 1])) << 16) |
         (uint32_t(uint8_t(b[at + 2])) << 8) | uint32_t(uint8_t(b[at + 3]));
}

int Paeth(int a, int b, int c) {
  int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

// Undoes the per-row filters in place (PNG spec §9).
void Unfilter(std::vector<uint8_t>& raw, uint32_t height, size_t stride, int bpp) {
  std::vector<uint8_t> prev(stride, 0);
  for (uint32_t y = 0; y < height; ++y) {
    uint8_t* row = raw.data() + y * (stride + 1);
    int filter = row[0];
    uint8_t* px = row + 1;
    for (size_t x = 0; x < stride; ++x) {
      int a = x >= size_t(bpp) ? px[x - bpp] : 0, b = prev[x],
          c = x >= size_t(bpp) ? prev[x - bpp] : 0;
      int add = filter == 0 ? 0 : filter == 1 ? a : filter == 2 ? b
              : filter == 3 ? (a + b) / 2 : filter == 4 ? Paeth(a, b, c) : -1;
      if (add < 0) throw std::runtime_error("PNG: bad row filter");
      px[x] = uint8_t(px[x] + add);
    }
    prev.assign(px, px + stride);
  }
}

}  // namespace

PngImage DecodePng(const std::string& bytes) {
  if (bytes.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0) throw std::runtime_error("not a PNG");
  PngImage img;
  int colour_type = -1;
  std::string idat;
  for (size_t at = 8; at + 12 <= bytes.size();) {
    uint32_t len = Be32(bytes, at);
    std::string type = bytes.substr(at + 4, 4);
    if (at + 12 + len > bytes.size()) throw std::runtime_error("PNG: chunk cut short");
    if (type == "IHDR") {
      img.width = Be32(bytes, at + 8);
      img.height = Be32(bytes, at + 12);
      if (bytes[at + 16] != 8 || bytes[at + 20] != 0) throw std::runtime_error("PNG: not 8-bit");
      colour_type = uint8_t(bytes[at + 17]);
    } else if (type == "IDAT") {
      idat += bytes.substr(at + 8, len);
    }
    at += 12 + len;
  }
  if (colour_type != 2 && colour_type != 6) throw std::runtime_error("PNG: not RGB(A)");
  int bpp = colour_type == 6 ? 4 : 3;
  size_t stride = size_t(img.width) * bpp;
  std::vector<uint8_t> raw((stride + 1) * img.height);
  uLongf size = raw.size();
  if (uncompress(raw.data(), &size, reinterpret_cast<const Bytef*>(idat.data()),
                 idat.size()) != Z_OK || size != raw.size())
    throw std::runtime_error("PNG: bad image data");
  Unfilter(raw, img.height, stride, bpp);
  for (uint32_t y = 0; y < img.height; ++y)
    for (uint32_t x = 0; x < img.width; ++x) {
      const uint8_t* p = raw.data() + y * (stride + 1) + 1 + x * bpp;
      img.colours.insert((uint32_t(p[0]) << 16) | (uint32_t(p[1]) << 8) | p[2]);
    }
  return img;
}

}  // namespace pm::test

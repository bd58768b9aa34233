// The sample line a v2 difference line is taken against (proto/pgr_delta.hh):
// its text, where each of its integers is and its value, and the text of
// a difference line in which nothing changed (every integer "0"). Built
// once per keyframe; the encoder and decoder then move it forward a line
// at a time, touching only the integers that changed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace pm {

// A byte buffer grown (never shrunk) to what a line needs, so steady state
// allocates nothing. Growing forgets the contents.
class LineBuffer {
 public:
  char* Reserve(size_t bytes);
  char* data() { return data_.get(); }
  const char* data() const { return data_.get(); }

 private:
  std::unique_ptr<char[]> data_;
  size_t capacity_ = 0;
};

struct Baseline {
  LineBuffer text;  // the sample line, text[0, size)
  size_t size = 0;
  std::string zeros;               // the line with each integer written "0"
  std::vector<uint32_t> start;     // integer k is text[start[k], end[k])
  std::vector<uint32_t> end;
  std::vector<uint32_t> zero_at;   // and zeros[zero_at[k]]
  std::vector<uint64_t> values;

  // Rebuilds it from a v1 sample line. False when the line holds a number
  // that is not a plain unsigned integer (sign, fraction, exponent, leading
  // zero, out of range): such a line is never encoded.
  bool Split(std::string_view line);

  std::string_view Text() const { return {text.data(), size}; }
  size_t count() const { return values.size(); }

  // The integer, from `from` on, whose text holds `at` or ends there
  // (count() when none: `at` is in the text between integers).
  size_t IntegerAround(size_t from, size_t at) const;
  // The same in zeros.
  size_t ZeroAround(size_t from, size_t at) const;
  // Integers [from, to) kept their values and moved by `by` bytes.
  void Move(size_t from, size_t to, ptrdiff_t by);

  // The most bytes a line of this shape takes, its integers written with
  // up to 20 characters, plus slack for 8-byte stores.
  size_t MaxLineBytes() const { return zeros.size() + 20 * values.size() + 16; }
};

}  // namespace pm

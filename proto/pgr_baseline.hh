// The sample line a v2 difference line is taken against (proto/pgr_delta.hh):
// its text, where each of its integers is and its value, and the text of
// a difference line in which nothing changed (every integer "0"). Split
// from a line when its shape is new; then moved forward a line at a time
// by a walk that compares 16 bytes at a time and stops only where an
// integer changed (most do not), checking the shape on the way and copying
// the text around unchanged integers in one piece.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
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

class Baseline {
 public:
  // Rebuilds it from a v1 sample line. False when the line holds a number
  // that is not a plain unsigned integer (sign, fraction, exponent, leading
  // zero, out of range): such a line is never encoded.
  bool Split(std::string_view line);

  // Moves it to v1 sample line `line`, writing to `out` the baseline's
  // shape with each integer replaced by its difference (this - before,
  // signed; `out` holds MaxLineBytes()). The bytes written, or 0 when
  // `line` has another shape.
  size_t Advance(std::string_view line, char* out);
  // Advance without writing the differences (summary's skim of the v1
  // lines it never parses): true when `line` has the baseline's shape,
  // and the baseline is then `line`. The text is patched where integers
  // changed, copied whole only when one changed its length. False: as
  // a 0 from Advance.
  bool Follow(std::string_view line);
  // Follow for a reader that never asks the values (summary's skim): the
  // same answer and the same text, but values() go stale. A line of the
  // text's length whose integers kept theirs (most lines: the counters
  // that moved kept their number of digits) is checked 16 bytes at a time
  // — every byte that differs a digit inside an integer, no new leading
  // zero — and nothing of it is parsed; any other line takes Follow.
  bool Skim(std::string_view line);

  // The reverse: `differences` is the baseline's shape with differences
  // for integers, from its second byte on (a difference line's first
  // bytes are its own); the sums become the baseline, whose text is the
  // rebuilt v1 line. Its length, or 0 when `differences` has another
  // shape.
  size_t AddDifferences(std::string_view differences);

  // AddDifferences without writing the text (summary's skim of the lines
  // it never parses): true when `differences` has the baseline's shape,
  // then the sums are the baseline's values and Text() is stale until
  // Render(). False leaves the baseline untouched.
  bool SumDifferences(std::string_view differences);
  // Writes the text of the values (after SumDifferences).
  void Render();

  // After a 0 from Advance or AddDifferences the baseline is half moved:
  // only Split may follow. Text() is then still the line before (Advance
  // and AddDifferences replace it only once the walk succeeded).

  std::string_view Text() const { return {text_.data(), size_}; }
  // Integer k of the line, in text order (sums after SumDifferences).
  std::span<const uint64_t> values() const { return values_; }
  // How many times Split ran: values() keep their meaning, integer k the
  // same place in the same shape, while this stays.
  uint64_t splits() const { return splits_; }
  // The most bytes a line of this shape takes, its integers written with
  // up to 20 characters, plus slack for 8-byte stores.
  size_t MaxLineBytes() const { return zeros_.size() + 20 * values_.size() + 16; }

 private:
  bool SameLayout(std::string_view line);
  void MapIntegers();
  size_t IntegerAround(size_t from, size_t at) const;
  size_t ZeroAround(size_t from, size_t at) const;
  void Move(size_t from, size_t to, ptrdiff_t by);
  size_t count() const { return values_.size(); }

  LineBuffer text_;  // the sample line, text_[0, size_)
  size_t size_ = 0;
  LineBuffer next_;  // AddDifferences writes here, then swaps with text_
  std::string zeros_;              // the line with each integer written "0"
  std::vector<uint32_t> start_;    // integer k is text_[start_[k], end_[k])
  std::vector<uint32_t> end_;
  std::vector<uint32_t> zero_at_;  // and zeros_[zero_at_[k]]
  std::vector<uint32_t> zero_after_;  // [p]: the first k whose zero_at_[k] + 1 >= p
  std::vector<uint64_t> values_;
  std::vector<std::pair<size_t, uint64_t>> changes_;  // SumDifferences' sums to apply
  std::vector<uint32_t> patched_;  // Follow's changed integers, to write once it matched
  uint64_t splits_ = 0;
  // Skim's map of the text, byte for byte: 0xFF inside an integer
  // (digits_), at the first digit of one of two digits or more (leads_).
  // Remade when the integers moved (mapped_ false).
  std::vector<char> digits_, leads_;
  std::vector<uint32_t> chunks_;  // Skim's 16-byte chunks that differ, to write once it matched
  bool mapped_ = false;
  bool long_integer_ = false;  // one has 20 digits: it might not fit 64 bits
};

}  // namespace pm

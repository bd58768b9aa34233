// The sample line a v2 difference line is taken against (proto/pgr_delta.hh):
// its text, where each of its integers is and its value, and the text of
// a difference line in which nothing changed (every integer "0"). Split
// from a line when its shape is new; then moved forward a line at a time
// by a walk that compares 16 bytes at a time and stops only where an
// integer changed (most do not), checking the shape on the way and copying
// the text around unchanged integers in one piece.
//
// Here are the walks the writer makes (Split, Advance); the readers' walks
// over the same state (Follow, Skim, AddDifferences, SumDifferences) are
// playback/reading/reader_baseline.hh's.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
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

  // After a 0 from Advance the baseline is half moved: only Split may
  // follow. Text() is then still the line before (Advance replaces it
  // only once the walk succeeded).

  std::string_view Text() const { return {text_.data(), size_}; }
  // Integer k of the line, in text order.
  std::span<const uint64_t> values() const { return values_; }
  // How many times Split ran: values() keep their meaning, integer k the
  // same place in the same shape, while this stays.
  uint64_t splits() const { return splits_; }
  // The most bytes a line of this shape takes, its integers written with
  // up to 20 characters, plus slack for 8-byte stores.
  size_t MaxLineBytes() const { return zeros_.size() + 20 * values_.size() + 16; }

 protected:
  size_t count() const { return values_.size(); }
  // The integer whose text holds offset `at`, searching from integer
  // `from` on (count(): none). Between two changed integers lie a dozen
  // unchanged ones or more: the scan strides over 8 at a time first.
  size_t IntegerAround(size_t from, size_t at) const {
    size_t k = from, n = end_.size();
    while (k + 8 < n && end_[k + 8] < at) k += 8;
    while (k < n && end_[k] < at) ++k;
    return k < n && start_[k] <= at ? k : n;
  }
  // The same for offset `at` of zeros_, which never moves between splits:
  // a table answers at once.
  size_t ZeroAround(size_t from, size_t at) const {
    size_t k = std::max<size_t>(from, zero_after_[at]), n = zero_at_.size();
    return k < n && zero_at_[k] <= at ? k : n;
  }
  // Shifts integers [from, to) in the text by `by` bytes.
  void Move(size_t from, size_t to, ptrdiff_t by) {
    if (by == 0) return;
    for (size_t k = from; k < to; ++k) {
      start_[k] = static_cast<uint32_t>(start_[k] + by);
      end_[k] = static_cast<uint32_t>(end_[k] + by);
    }
  }
  void CopyText(std::string_view line);

  LineBuffer text_;  // the sample line, text_[0, size_)
  size_t size_ = 0;
  std::string zeros_;              // the line with each integer written "0"
  std::vector<uint32_t> start_;    // integer k is text_[start_[k], end_[k])
  std::vector<uint32_t> end_;
  std::vector<uint32_t> zero_at_;  // and zeros_[zero_at_[k]]
  std::vector<uint32_t> zero_after_;  // [p]: the first k whose zero_at_[k] + 1 >= p
  std::vector<uint64_t> values_;
  uint64_t splits_ = 0;
  // A reader's map of where the integers are (playback's Skim) holds
  // while this is true: Split and Advance may move them.
  bool mapped_ = false;
};

}  // namespace pm

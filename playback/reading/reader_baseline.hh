// The Baseline (proto/pgr_baseline.hh) as the readers move it: the walks
// that check a line against it without writing differences (a v1 line:
// Follow, Skim) and the reverse of the writer's walk (a v2 difference
// line: AddDifferences, SumDifferences and Render).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "proto/pgr_baseline.hh"

namespace pm {

class ReaderBaseline : public Baseline {
 public:
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

  // The reverse of Advance: `differences` is the baseline's shape with
  // differences for integers, from its second byte on (a difference
  // line's first bytes are its own); the sums become the baseline, whose
  // text is the rebuilt v1 line. Its length, or 0 when `differences` has
  // another shape; then the baseline is half moved, as after a 0 from
  // Advance.
  size_t AddDifferences(std::string_view differences);

  // AddDifferences without writing the text (summary's skim of the lines
  // it never parses): true when `differences` has the baseline's shape,
  // then the sums are the baseline's values and Text() is stale until
  // Render(). False leaves the baseline untouched.
  bool SumDifferences(std::string_view differences);
  // Writes the text of the values (after SumDifferences).
  void Render();

 private:
  bool SameLayout(std::string_view line);
  void MapIntegers();

  LineBuffer next_;  // AddDifferences writes here, then swaps with text_
  std::vector<std::pair<size_t, uint64_t>> changes_;  // SumDifferences' sums to apply
  std::vector<uint32_t> patched_;  // Follow's changed integers, to write once it matched
  // Skim's map of the text, byte for byte: 0xFF inside an integer
  // (digits_), at the first digit of one of two digits or more (leads_).
  // Remade when the integers moved (mapped_ false).
  std::vector<char> digits_, leads_;
  std::vector<uint32_t> chunks_;  // Skim's 16-byte chunks that differ, to write once it matched
  bool long_integer_ = false;  // one has 20 digits: it might not fit 64 bits
};

}  // namespace pm

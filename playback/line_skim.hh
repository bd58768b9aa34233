// Validates a recording line without parsing its values: simdjson's
// structural pass (stage 1, the kernel for this CPU chosen at run time)
// checks UTF-8, string quoting and control bytes, and finds the
// structural characters ({}[]:, and the first byte of every string and
// scalar); the line is then vouched for only when those characters are,
// in number and in order, exactly those of a line parsed in full before
// (Learn()), and its strings (a sample's keys) are those of that line
// byte for byte. That implies what a full parse checks of the structure —
// brackets balanced and matched, commas and colons in place, one object
// spanning the whole line, the same members with the same numbers of rows
// and columns — so a cut, spliced or garbled line is never vouched for.
// What it does not check is the text of the numbers (a digit garbled into
// a letter, a number out of range or negative, null for a number):
// `summary` uses this for the samples in the middle of a span, whose
// values it never reads.
//
// A line it cannot vouch for is not an error: the caller parses it in
// full, which refuses it (or accepts it, say a row that became null, and
// the caller learns its shape). Lines of kMaxLine bytes or more are never
// vouched for.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace pm {

class LineSkim {
 public:
  static constexpr size_t kMaxLine = 1 << 20;

  LineSkim();
  ~LineSkim();
  LineSkim(const LineSkim&) = delete;
  LineSkim& operator=(const LineSkim&) = delete;

  // Remembers the structure of `line`, which a full parse accepted.
  void Learn(std::string_view line);
  // True when `line` passes stage 1 and has the learned structure.
  bool Vouches(std::string_view line);

 private:
  struct Pass;  // simdjson's stage 1, kept out of this header
  // Stage 1 over `line`: its structural indexes, or null when it fails.
  const uint32_t* Structurals(std::string_view line, size_t& count);

  std::unique_ptr<Pass> pass_;
  std::vector<char> shape_;  // the learned line's structural characters
  struct LearnedString {
    size_t index;      // in shape_
    std::string text;  // its bytes up to the next structural character
  };
  std::vector<LearnedString> strings_;
};

}  // namespace pm

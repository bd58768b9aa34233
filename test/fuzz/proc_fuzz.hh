// The shape of every /proc parser target: a parser (text, out) that throws
// FormatError or fills `out`, and a rendering of `out` for comparisons.
//
// The recorder parses each file into the same struct every tick (storage
// reused, meminfo even caches each line's key), so the result must not
// depend on what was parsed before: the input parsed into a fresh struct
// and into one that last held a different text (the input's first half)
// must agree, error or not.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/error.hh"
#include "test/fuzz/fuzz_check.hh"

namespace pm::fuzz {

// "error: MESSAGE" or show(out).
template <class Out, class Parse, class Show>
std::string Outcome(std::string_view text, Out& out, Parse parse, Show show) {
  try {
    parse(text, out);
  } catch (const FormatError& e) {
    return std::string("error: ") + e.what();
  }
  return show(out);
}

template <class Out, class Parse, class Show>
void FuzzParser(const uint8_t* data, size_t size, Parse parse, Show show) {
  std::string text(reinterpret_cast<const char*>(data), size);
  Out fresh;
  std::string first = Outcome(text, fresh, parse, show);
  Require(Outcome(text, fresh, parse, show) == first, "parsing again gives the same");
  Out reused;
  std::string half = text.substr(0, size / 2);
  Outcome(half, reused, parse, show);
  Require(Outcome(text, reused, parse, show) == first,
          "the result does not depend on the text parsed before");
}

// Appends the numbers, space-separated.
template <class Numbers>
void AppendNumbers(std::string& out, const Numbers& numbers) {
  for (uint64_t n : numbers) out.append(" ").append(std::to_string(n));
}

// A parse of named fields (vmstat, snmp): the values, then which were
// present.
template <class Fields>
std::string ShowFields(const Fields& f) {
  std::string out;
  AppendNumbers(out, f.values);
  for (bool p : f.present) out.push_back(p ? '1' : '0');
  return out;
}

}  // namespace pm::fuzz

// /proc/pressure/{cpu,io,memory,irq} (PSI): the cumulative stall time of
// the "some" and "full" lines. Pure: text in, struct out.
//
//   some avg10=0.00 avg60=0.00 avg300=0.00 total=4603612142
//   full avg10=0.00 avg60=0.00 avg300=0.00 total=0
//
// Kernels before 5.13 print no "full" line for cpu; irq has only "full".
#pragma once

#include <cstdint>
#include <string_view>

namespace pm {

struct PressureLines {
  bool has_some = false, has_full = false;
  uint64_t some_us = 0, full_us = 0;  // total= (microseconds)
};

// Lines of another kind are skipped (a later kernel's); a "some" or "full"
// line without a numeric total= is an error. Throws FormatError
// "source:line: ...".
void ParsePressure(std::string_view text, PressureLines& out,
                   std::string_view source = "/proc/pressure/cpu");

}  // namespace pm

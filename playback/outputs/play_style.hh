// `play --pretty` and `--color`: PerfMonger 1.0's layout and palette, laid
// over a compact line of AppendPlayJson (or any compact JSON we write).
// Rules taken from PerfMonger's output on busy100.pgr, byte for byte:
//
// pretty ("smart" wrapped layout)
//   - `"key": value`, and `, ` between members and between array elements;
//   - a member whose value is an object or an array starts a new line,
//     indented one space per level of nesting, objects and arrays alike
//     (`{"time": ..,\n "cpu": {"num_core": 2,\n  "all": {`); the first
//     member of an object always follows its `{`;
//   - a scalar member stays on the line when the line, counted through the
//     comma or closing brackets after the value, keeps to 79 columns;
//     otherwise it wraps to its object's indentation;
//   - array elements never wrap (a long intr array stays on one line);
//   - quirks kept for byte equality: after the newline before an
//     array-valued member the column count goes on from the previous line
//     (so the "cores" line wraps early), and inside an array a wrapped line
//     counts its indentation two columns short (so it may reach 81).
// color (with or without pretty)
//   keys \e[31m, strings \e[35m, integers \e[32m, floats \e[36m (NaN and
//   Inf too), each followed by \e[0m; true, false and null unpainted.
//   Escapes take no columns.
//
// Without pretty the compact text is kept, escapes aside. Widths count
// UTF-8 code points. No newline is appended. Malformed input is copied
// through without a crash; it is never our writers' output.
#pragma once

#include <string>
#include <string_view>

namespace pm {

struct PlayStyle {
  bool pretty = false;
  bool color = false;
};

void AppendStyledPlayJson(std::string& out, std::string_view compact,
                          PlayStyle style);

}  // namespace pm

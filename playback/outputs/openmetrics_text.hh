// The pieces of OpenMetrics text (openmetrics.io, text format 1.0) the
// export writes: label names and values, counter values in node_exporter's
// units, and millisecond timestamps, all from integers so nothing is lost
// to floating point.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace pm {

// How a raw counter becomes node_exporter's unit.
enum class Scale : uint8_t {
  kOne,          // as recorded
  kPerHundred,   // jiffies (USER_HZ = 100) -> seconds
  kPerThousand,  // milliseconds -> seconds
  kPerMillion,   // microseconds -> seconds
  kPerBillion,   // nanoseconds -> seconds
  kTimes512,     // sectors -> bytes
  kTimes1024,    // kB -> bytes
};

void AppendScaled(std::string& out, uint64_t value, Scale scale);

// Unix seconds with exactly three decimals: "1796076770.507".
void AppendTimestampMs(std::string& out, int64_t ms);

// A label value between its quotes: `\`, `"` and newline escaped; bytes
// that are not UTF-8 become U+FFFD (OpenMetrics text is UTF-8).
void AppendLabelValue(std::string& out, std::string_view value);

// `name="value"`.
void AppendLabel(std::string& out, std::string_view name, std::string_view value);

// A valid label name from any key: [a-zA-Z_][a-zA-Z0-9_]*, other bytes
// become '_', a leading digit gets a '_' before it, and the reserved "__"
// prefix becomes "meta__".
std::string SanitizedLabelName(std::string_view key);

}  // namespace pm

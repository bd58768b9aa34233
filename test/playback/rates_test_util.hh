// Hand-built RawSamples for the rates and summary tests: one sample at a
// given time, with rows added by small builders.
#pragma once

#include <cstdint>
#include <string>

#include "playback/outputs/play_json.hh"
#include "playback/reports/rates.hh"
#include "playback/reading/raw_sample.hh"
#include "test/playback/sample_rows.hh"

namespace pm::test {

inline constexpr int64_t kSec = 1000000000;

inline RawSample At(int64_t time_ns) {
  RawSample s;
  s.time_ns = time_ns;
  return s;
}

// rx bytes/packets at [0]/[1], tx bytes/packets at [8]/[9].
inline NetCounters Net(uint64_t rx_bytes, uint64_t rx_pkts, uint64_t tx_bytes,
                       uint64_t tx_pkts) {
  NetCounters c{};
  c[0] = rx_bytes;
  c[1] = rx_pkts;
  c[8] = tx_bytes;
  c[9] = tx_pkts;
  return c;
}

// play's line for the pair, in PerfMonger's schema (as for a legacy
// recording: these tests check its formulas; test_sar_derived.cc the
// values beyond it).
inline std::string PlayLine(const RawSample& prev, const RawSample& cur, int64_t origin_ns,
                            const DiskFilter* disk_only = nullptr) {
  ReportOptions options;
  options.disk_only = disk_only;
  options.legacy = true;
  std::string out;
  AppendPlayJson(out, Pair(prev, cur, {origin_ns}, options));
  return out;
}

// The value of play's member `key` in `line` (its JSON text), or "".
inline std::string PlayMember(const std::string& line, std::string_view key) {
  std::string prefix = "\"" + std::string(key) + "\":";
  size_t at = line.find(prefix);
  if (at == std::string::npos) return "";
  at += prefix.size();
  int depth = 0;
  bool in_string = false;
  for (size_t i = at; i < line.size(); ++i) {
    char c = line[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    else if (c == '{' || c == '[') ++depth;
    else if (c == '}' || c == ']') {
      if (--depth == 0) return line.substr(at, i + 1 - at);
    } else if (c == ',' && depth == 0) {
      return line.substr(at, i - at);
    }
  }
  return line.substr(at);
}

inline std::string Fixed(double v, int precision) {
  std::string out;
  AppendFixed(out, v, precision);
  return out;
}

}  // namespace pm::test

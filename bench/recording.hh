// Reading a recording back with the project's own decoder (proto/codec.hh,
// playback/reading/line_reader.hh): sample count, each sample's "mono", the trailer.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace pm::bench {

struct RecordingInfo {
  uint64_t file_bytes = 0;        // compressed size on disk
  std::vector<int64_t> mono_ns;   // one per sample line, in order
  bool has_end = false;
  uint64_t end_samples = 0;       // as the trailer reports
  uint64_t end_missed_ticks = 0;
  std::string end_reason;
  bool truncated = false;

  uint64_t samples() const { return mono_ns.size(); }
};

// Throws std::runtime_error (or pm::FormatError) if it cannot be read.
RecordingInfo ReadRecording(const std::string& path);

// p99 and max of |mono[k] - (mono[0] + k*interval)| over k = 1..n-2: the
// last sample is skipped (the stop-instant one, off the schedule).
struct Jitter {
  double p99_ns = 0;
  double max_ns = 0;
  size_t count = 0;
};
Jitter IntervalJitter(const std::vector<int64_t>& mono_ns, int64_t interval_ns);

}  // namespace pm::bench

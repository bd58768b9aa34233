// The recordings perfmonger-bench-readers reads: the lines of one real
// recording of this machine, written again in each form a reader meets
// (format v1 and v2, gzip and zstd), every line flushed through the
// compressor as the recorder does.
#pragma once

#include <string>
#include <vector>

namespace pm::bench {

struct RecordingLines {
  std::string header;               // with its "\n"
  std::vector<std::string> lines;   // samples and events, each with its "\n"
  size_t samples = 0;
};

// Records `seconds` of this machine at 1 ms, format v1 uncompressed, to
// `path` (v1: every line holds absolute counters, the source of both
// forms). Throws std::runtime_error when the recorder fails.
void RecordReal(const std::string& perfmonger, const std::string& path, const char* seconds);

// The lines of plain v1 recording `path` (a cut last line left out).
RecordingLines LoadLines(const std::string& path);

// Writes `rec` to `path` (compressed as its suffix says) as format
// `version`: 1 the lines as they are, 2 through DeltaEncoder as the
// recorder encodes them (a keyframe forced after each resume).
void WriteRecording(const std::string& path, const RecordingLines& rec, int version);

}  // namespace pm::bench

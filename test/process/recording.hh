// Reading back what the recorder wrote, the way `play` does: the proto
// decompressor (codec by magic bytes) and line splitter, then simdjson.
// Also the session shape most tests drive: --ready-fd 3 and --stop-fd 4.
#pragma once

#include <simdjson.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "proto/codec.hh"
#include "test/process/spawn.hh"

namespace pm::test {

std::string ReadFileBytes(const std::string& path);

struct Recording {
  std::vector<std::string> lines;  // complete lines, without "\n"
  bool truncated = false;          // input ended inside a gzip/zstd stream
  bool partial_tail = false;       // bytes after the last "\n"
  Compression compression = Compression::kPlain;
};

// Throws on garbage (pm::FormatError), never on a clean cut.
Recording ReadRecording(const std::string& path);

// One parsed JSON line; throws simdjson_error if it is not JSON.
class Json {
 public:
  explicit Json(std::string_view text);
  simdjson::dom::element root() const { return root_; }
  bool Has(std::string_view key) const;
  std::string Str(std::string_view key) const;
  int64_t Int(std::string_view key) const;
  std::vector<std::string> Keys() const;  // in document order

 private:
  std::unique_ptr<simdjson::dom::parser> parser_;
  simdjson::dom::element root_;
};

// Lines after the header that are samples (an object with "t", no "event").
size_t CountSampleLines(const Recording& recording);

// A cleanly closed recording: a header, samples, and the `end` trailer
// last, with `reason` and a sample count equal to the sample lines.
// Returns the number of sample lines.
size_t CheckCleanRecording(const std::string& path, const std::string& reason);

// The real gzip binary's `gzip -t PATH`; its exit status.
int GzipTest(const std::string& path);

// The recorder as the embedding contract drives it: `args` plus
// --ready-fd 3 --stop-fd 4 (pipes), stdin /dev/null.
class Session {
 public:
  explicit Session(std::vector<std::string> args, std::string cwd = "",
                   std::vector<std::string> env = {});
  std::string ReadReadyLine(Deadline deadline = DefaultDeadline());
  LineInput& ready() { return ready_; }
  void CloseStop() { stop_.Reset(); }
  Child& child() { return *child_; }
  ExitResult Wait() { return child_->Wait(); }

 private:
  LineInput ready_;
  UniqueFd stop_;
  std::unique_ptr<Child> child_;
};

// Start, wait for ready, stop at once, reap: a short complete recording.
ExitResult RecordBriefly(std::vector<std::string> args, std::string cwd = "");

}  // namespace pm::test

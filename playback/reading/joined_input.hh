// Several native recordings read as one timeline (`play DIR`, `summary
// a.pgr.zst b.pgr.zst`): one plain stream, as a single recording of the
// whole span would be, for RecordingReader to read like any other.
//
// The files come in the order of their headers' start times (Order()).
// The first file's header opens the stream; the others' must record the
// same host, format version and collectors (with the same devices), or
// the join is refused (FormatError naming both files). Between two
// files:
//   - chained (rotation, daemon/rotation.hh): the earlier one ends with a
//     `rotate` or `reopen` trailer at the instant of the later one's first
//     sample, which is the same sample; it is given once.
//   - anything else is a gap (a recorder stopped or killed, a missing
//     file, a reboot): a `pause` event at the earlier file's last sample
//     and a `resume` event at the later one's first, so that no reader
//     rates across it, and one line in gaps() saying so. After a reboot
//     (the monotonic clock went back) the later files' monotonic times
//     are moved on by the wall-clock gap, so elapsed times keep growing.
// Every trailer but the last file's is dropped. Each file is decompressed
// by its own codec (gzip, zstd or plain); legacy (gob) files cannot join.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "common/unique_fd.hh"
#include "proto/stream.hh"

namespace pm {

// The recordings among `paths` (a directory stands for its *.pgr,
// *.pgr.gz and *.pgr.zst files), ordered by start time; files with no
// header yet (empty: a recorder killed before its first flush) are left
// out. Throws std::system_error (unreadable) or FormatError.
std::vector<std::string> OrderRecordings(const std::vector<std::string>& paths);

struct JoinedFile;  // one file, decompressed and split in lines

class JoinedInput final : public InputStream {
 public:
  explicit JoinedInput(std::vector<std::string> paths);  // ordered, not empty
  ~JoinedInput() override;
  size_t Read(std::span<char> buf) override;

  std::span<const std::string> gaps() const { return gaps_; }
  int last_fd() const;  // the last file's (a live recorder may hold it)

 private:
  bool Produce();  // more bytes into out_; false at the end of the last file
  void OpenNext();
  void TakeLine(std::string_view line);
  void JoinFirstSample(std::string_view line);

  std::vector<std::string> paths_;
  size_t next_ = 0;
  std::unique_ptr<JoinedFile> file_;
  std::string first_header_shape_;
  std::string out_;
  size_t out_at_ = 0;
  std::vector<std::string> gaps_;
  // The stream so far: the last sample's instant, and the held trailer.
  int64_t last_t_ = 0, last_mono_ = 0;
  bool have_sample_ = false;
  bool chained_ = false;      // the held trailer is a rotation's
  int64_t end_t_ = 0, end_mono_ = 0;
  int64_t mono_shift_ = 0;    // after a reboot
  bool first_in_file_ = false;
  uint64_t line_in_file_ = 0;
};

}  // namespace pm

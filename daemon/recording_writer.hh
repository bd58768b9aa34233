// The output chain of one recording: lines -> compressor (chosen by the
// output name) -> FileSink. Each WriteAndFlushLine() is flushed through the
// compressor, so every line written is decodable by a reader at once and
// survives a SIGKILL of the recorder. An observer, if set, sees every
// line as written (before compression); without a file (`live` without
// -l) it is the only one that does.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "daemon/file_sink.hh"
#include "daemon/recording_observer.hh"
#include "proto/codec.hh"

namespace pm {

class RecordingWriter {
 public:
  // A deleted output is noticed at the latest after this many flushes (an
  // fstat each time, not each sample), and always at Finish(); a truncated
  // one at the next write.
  static constexpr uint64_t kIntactCheckEvery = 16;

  // Creates the file. Throws std::system_error or UsageError (a setup error).
  RecordingWriter(const std::string& path, Compression compression);
  RecordingWriter() = default;  // no file: lines reach the observer only
  void SetObserver(RecordingObserver* observer) { observer_ = observer; }

  void Write(std::string_view bytes);       // buffered in the compressor
  void WriteAndFlushLine(std::string_view line);  // a sync point
  void Finish();    // compressor trailer, fsync, close; throws OutputLost
  void Abandon() noexcept;  // after a write error: close what is there
  void Remove() noexcept;   // Abandon() and remove the file (nothing usable)
  // After a write failed (a full disk): the file cut back to its last
  // complete flush and closed, or removed if nothing was flushed. What was
  // flushed stays readable (no end trailer: readers warn, exit 0).
  void AbandonAtLastFlush() noexcept;

  uint64_t bytes_written() const { return sink_ ? sink_->bytes_written() : 0; }
  uint64_t lines_flushed() const { return lines_flushed_; }
  bool has_file() const { return sink_.has_value(); }

 private:
  std::optional<FileSink> sink_;
  std::unique_ptr<OutputStream> compressor_;  // null without a file
  RecordingObserver* observer_ = nullptr;
  uint64_t lines_flushed_ = 0;
  uint64_t flushed_bytes_ = 0;  // the file's length after the last flush
  bool closed_ = false;
};

}  // namespace pm

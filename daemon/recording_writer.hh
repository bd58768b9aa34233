// The output chain of one recording: lines -> compressor (chosen by the
// output name) -> FileSink. Each WriteAndFlushLine() is flushed through the
// compressor, so every line written is decodable by a reader at once and
// survives a SIGKILL of the recorder.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "daemon/file_sink.hh"
#include "proto/codec.hh"

namespace pm {

class RecordingWriter {
 public:
  // Creates the file. Throws std::system_error (a setup error).
  RecordingWriter(const std::string& path, Compression compression);

  void Write(std::string_view bytes);       // buffered in the compressor
  void WriteAndFlushLine(std::string_view line);  // a sync point
  void Finish();    // compressor trailer, fsync, close
  void Abandon() noexcept;  // after a write error: close what is there

  uint64_t bytes_written() const { return sink_.bytes_written(); }

 private:
  FileSink sink_;
  std::unique_ptr<OutputStream> compressor_;
  bool closed_ = false;
};

}  // namespace pm

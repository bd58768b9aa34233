#include "daemon/recording_writer.hh"

#include <unistd.h>

namespace pm {

RecordingWriter::RecordingWriter(const std::string& path, Compression compression)
    : sink_(path),
      compressor_(MakeCompressor(compression, sink_, FirstFlush::kStored)) {}

void RecordingWriter::Write(std::string_view bytes) { compressor_->Write(bytes); }

void RecordingWriter::WriteLine(std::string_view line) {
  compressor_->Write(line);
  compressor_->Flush();
  if (++lines_flushed_ % kLinkCheckEvery == 0) sink_.CheckLinked();
}

void RecordingWriter::Finish() {
  compressor_->Finish();
  sink_.CheckLinked();  // if it throws, Abandon() still closes the fd
  closed_ = true;
  sink_.Close();
}

void RecordingWriter::Abandon() noexcept {
  if (closed_) return;
  closed_ = true;
  try {
    sink_.Close();
  } catch (...) {
    // Already failing: the first error is the one reported.
  }
}

void RecordingWriter::Remove() noexcept {
  Abandon();
  sink_.RemoveFile();
}

}  // namespace pm

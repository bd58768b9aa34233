#include "daemon/recording_writer.hh"

#include <unistd.h>

namespace pm {

RecordingWriter::RecordingWriter(const std::string& path, Compression compression)
    : sink_(std::in_place, path),
      compressor_(MakeCompressor(compression, *sink_, FirstFlush::kStored)) {}

void RecordingWriter::Write(std::string_view bytes) {
  if (compressor_) compressor_->Write(bytes);
  if (observer_) observer_->OnLines(bytes);
}

void RecordingWriter::WriteAndFlushLine(std::string_view line) {
  if (compressor_) {
    compressor_->Write(line);
    compressor_->Flush();
  }
  if (observer_) observer_->OnLines(line);
}

void RecordingWriter::Finish() {
  closed_ = true;
  if (!compressor_) return;
  compressor_->Finish();
  sink_->Close();
}

void RecordingWriter::Abandon() noexcept {
  if (closed_) return;
  closed_ = true;
  if (!sink_) return;
  try {
    sink_->Close();
  } catch (...) {
    // Already failing: the first error is the one reported.
  }
}

}  // namespace pm

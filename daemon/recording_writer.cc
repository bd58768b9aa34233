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
    flushed_bytes_ = sink_->bytes_written();
    if (++lines_flushed_ % kIntactCheckEvery == 0) sink_->CheckIntact();
  }
  if (observer_) observer_->OnLines(line);
}

void RecordingWriter::Finish() {
  if (!compressor_) {
    closed_ = true;
    return;
  }
  compressor_->Finish();
  sink_->CheckIntact();  // if it throws, Abandon() still closes the fd
  closed_ = true;
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

void RecordingWriter::AbandonAtLastFlush() noexcept {
  if (sink_ && flushed_bytes_ == 0) return Remove();
  if (sink_) sink_->TruncateTo(flushed_bytes_);  // failing, the partial block stays
  Abandon();
}

void RecordingWriter::Remove() noexcept {
  Abandon();
  if (sink_) sink_->RemoveFile();
}

}  // namespace pm

#include "playback/reading/recording_reader.hh"

#include <algorithm>
#include <array>

#include "common/error.hh"
#include "proto/codec.hh"
#include "playback/reading/gob_reader.hh"
#include "playback/reading/native_reader.hh"
#include "playback/reading/prefetched_input.hh"
#include "playback/reading/recording_kind.hh"

namespace pm {
namespace {

// The decompressed stream with its first bytes read ahead to tell the
// formats apart, then handed on again.
class PeekedInput final : public InputStream {
 public:
  static constexpr size_t kPeek = kKindHeadBytes;

  explicit PeekedInput(InputStream& in) : in_(&in) {
    while (len_ < kPeek) {
      size_t n = in_->Read(std::span(head_).subspan(len_));
      if (n == 0) break;
      len_ += n;
    }
  }

  std::string_view head() const { return {head_.data(), len_}; }
  // Reads on from `in`, which continues where the source left off.
  void ReadFrom(InputStream& in) { in_ = &in; }

  size_t Read(std::span<char> buf) override {
    if (pos_ == len_) return in_->Read(buf);
    size_t n = std::min(buf.size(), len_ - pos_);
    std::copy_n(head_.begin() + pos_, n, buf.begin());
    pos_ += n;
    return n;
  }

  std::span<const char> Borrow(std::span<char> scratch) override {
    if (pos_ == len_) return in_->Borrow(scratch);
    std::span<const char> rest(head_.data() + pos_, len_ - pos_);
    pos_ = len_;
    return rest;
  }

 private:
  InputStream* in_;
  std::array<char, kPeek> head_{};
  size_t len_ = 0;
  size_t pos_ = 0;
};

class LegacySource final : public RecordingReader::Source {
 public:
  explicit LegacySource(InputStream& in) : reader_(in) {}
  const RecordingInfo& info() const override { return reader_.info(); }
  RecordingReader::Item Next(RawSample& sample, RecordingEvent&) override {
    return reader_.Next(sample) ? RecordingReader::Item::kSample
                                : RecordingReader::Item::kEnd;
  }
  bool truncated() const override { return reader_.truncated(); }

 private:
  LegacyReader reader_;
};

// A compressed stream cut before its first decompressed byte.
class NothingSource final : public RecordingReader::Source {
 public:
  const RecordingInfo& info() const override { return info_; }
  RecordingReader::Item Next(RawSample&, RecordingEvent&) override {
    return RecordingReader::Item::kEnd;
  }
  bool truncated() const override { return false; }

 private:
  RecordingInfo info_;
};

}  // namespace

RecordingReader::RecordingReader(InputStream& in)
    : raw_(std::make_unique<AfterLeadingZeros>(in)), decompressed_(MakeDecompressor(*raw_)) {
  bool holed = raw_->zeros() > 0;
  if (holed && !raw_->data_follows()) throw FormatError(ZerosMessage(*raw_));
  auto peeked = std::make_unique<PeekedInput>(*decompressed_);
  std::string_view head = peeked->head();
  peeked_ = std::move(peeked);
  if (head.empty() && !holed) {
    if (!decompressed_->truncated()) throw FormatError("empty recording");
    source_ = std::make_unique<NothingSource>();
    return;
  }
  RecordingKind kind = head.empty() ? RecordingKind::kForeign : KindOf(head);
  if (holed) {
    // Read on only from the start of a recording: lines without their
    // header, or a compressed stream entered in the middle, cannot be.
    bool starts = kind == RecordingKind::kLegacy ||
                  (kind == RecordingKind::kNative && head.starts_with("{\"format\":"));
    if (!starts) throw FormatError(ZerosMessage(*raw_));
    warnings_.push_back(HoleWarning(*raw_));
  }
  switch (kind) {
    case RecordingKind::kNative:
      source_ = std::make_unique<NativeReader>(*peeked_);
      has_trailer_ = true;
      break;
    case RecordingKind::kLegacy:
      source_ = std::make_unique<LegacySource>(*peeked_);
      break;
    case RecordingKind::kZeros:  // inside a compressed stream
      throw FormatError(ZerosMessage(AfterLeadingZeros(*peeked_)));
    case RecordingKind::kForeign:
      throw FormatError(ForeignMessage(head));
  }
}

RecordingReader::~RecordingReader() = default;

const RecordingInfo& RecordingReader::info() const { return source_->info(); }

RecordingReader::Item RecordingReader::Next(RawSample& sample, RecordingEvent& event) {
  if (read_ahead_ && !prefetched_) StartReadAhead();
  Item item = source_->Next(sample, event);
  // The decompressor's truncated() is written by the read-ahead thread,
  // even when the reader's first reads had already met the end (before
  // the thread started): it is read only once the thread is joined.
  if (item == Item::kEnd && prefetched_) prefetched_->Stop();
  if (item == Item::kSample) ++samples_read_;
  std::span<const std::string> lost = source_->warnings();
  if (lost.size() > source_warnings_)
    warnings_.insert(warnings_.end(), lost.begin() + source_warnings_, lost.end());
  source_warnings_ = lost.size();
  // The trailer counts only as the last line: anything after it is more
  // recording, written after a clean close (or appended by mistake).
  if (item != Item::kEnd) ended_ = item == Item::kEvent && event.kind == "end";
  return item;
}

bool RecordingReader::truncated() const {
  return decompressed_->truncated() || source_->truncated();
}

bool RecordingReader::missing_trailer() const { return has_trailer_ && !ended_; }
std::span<const std::string> RecordingReader::warnings() const { return warnings_; }

std::string_view RecordingReader::header_text() const { return source_->HeaderText(); }
std::string_view RecordingReader::line_text() { return source_->LineText(); }
void RecordingReader::KeepUnknownEvents() { source_->KeepUnknownEvents(); }

void RecordingReader::SkimSamples(const TimeCuts* cuts) {
  skimming_ = true;
  source_->SkimSamples(cuts);
}

void RecordingReader::ReadAhead() {
  // A plain input costs little to read.
  read_ahead_ = decompressed_->compression() != Compression::kPlain;
}

// Started once SkimSamples() had its chance: a reader that parses every
// line is the longer thread, and keeps the checks off its own.
void RecordingReader::StartReadAhead() {
  prefetched_ = std::make_unique<PrefetchedInput>(*decompressed_,
                                                  skimming_ ? decompressed_.get() : nullptr);
  static_cast<PeekedInput&>(*peeked_).ReadFrom(*prefetched_);
}

uint64_t RecordingReader::samples_read() const {
  return samples_read_ + source_->samples_skipped();
}

}  // namespace pm

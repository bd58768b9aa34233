#include "proto/codec.hh"

#include <algorithm>
#include <array>
#include <span>

#include "proto/gzip_stream.hh"
#include "proto/zstd_stream.hh"

namespace pm {
namespace {

constexpr std::string_view kGzipMagic("\x1f\x8b", 2);
constexpr std::string_view kZstdMagic("\x28\xb5\x2f\xfd", 4);

// `bytes` starts with `magic`, or is all of a stream cut inside it.
bool MatchesMagic(std::string_view bytes, std::string_view magic) {
  if (bytes.size() >= magic.size()) return bytes.starts_with(magic);
  return !bytes.empty() && magic.starts_with(bytes);
}

class PlainOutputStream final : public OutputStream {
 public:
  explicit PlainOutputStream(OutputStream& sink) : sink_(sink) {}
  void Write(std::string_view bytes) override { sink_.Write(bytes); }
  void Flush() override { sink_.Flush(); }
  void Finish() override { sink_.Finish(); }

 private:
  OutputStream& sink_;
};

class PlainInputStream final : public DecompressingInput {
 public:
  PlainInputStream(InputStream& source, std::string_view already_read)
      : source_(source), head_len_(already_read.size()) {
    std::copy(already_read.begin(), already_read.end(), head_.begin());
  }

  size_t Read(std::span<char> buf) override {
    if (head_pos_ == head_len_) return source_.Read(buf);
    size_t n = std::min(buf.size(), head_len_ - head_pos_);
    std::copy_n(head_.begin() + head_pos_, n, buf.begin());
    head_pos_ += n;
    return n;
  }
  bool truncated() const override { return false; }
  Compression compression() const override { return Compression::kPlain; }

 private:
  InputStream& source_;
  std::array<char, kMagicLength> head_{};
  size_t head_len_;
  size_t head_pos_ = 0;
};

}  // namespace

std::string_view CompressionName(Compression c) {
  switch (c) {
    case Compression::kGzip: return "gzip";
    case Compression::kZstd: return "zstd";
    case Compression::kPlain: break;
  }
  return "plain";
}

Compression CompressionForPath(std::string_view path) {
  if (path.ends_with(".gz")) return Compression::kGzip;
  if (path.ends_with(".zst")) return Compression::kZstd;
  return Compression::kPlain;
}

Compression DetectCompression(std::string_view first_bytes) {
  if (MatchesMagic(first_bytes, kGzipMagic)) return Compression::kGzip;
  if (MatchesMagic(first_bytes, kZstdMagic)) return Compression::kZstd;
  return Compression::kPlain;
}

std::unique_ptr<OutputStream> MakeCompressor(Compression c, OutputStream& sink,
                                             FirstFlush first) {
  switch (c) {
    case Compression::kGzip:
      return std::make_unique<GzipOutputStream>(
          sink, kGzipLevel, first == FirstFlush::kStored ? 0 : kGzipLevel);
    case Compression::kZstd: return std::make_unique<ZstdOutputStream>(sink);
    case Compression::kPlain: break;
  }
  return std::make_unique<PlainOutputStream>(sink);
}

std::unique_ptr<DecompressingInput> MakeDecompressor(InputStream& source) {
  std::array<char, kMagicLength> head;
  size_t len = 0;
  // A pipe may deliver the magic a byte at a time.
  while (len < head.size()) {
    size_t n = source.Read(std::span(head).subspan(len));
    if (n == 0) break;
    len += n;
  }
  std::string_view first(head.data(), len);
  switch (DetectCompression(first)) {
    case Compression::kGzip:
      return std::make_unique<GzipInputStream>(source, first);
    case Compression::kZstd:
      return std::make_unique<ZstdInputStream>(source, first);
    case Compression::kPlain: break;
  }
  return std::make_unique<PlainInputStream>(source, first);
}

}  // namespace pm

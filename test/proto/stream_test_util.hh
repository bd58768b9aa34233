// Shared by the proto stream tests: recordings built in memory, and readers
// that decode them the way `play` does (decompress, then complete lines;
// split here: playback/reading/line_reader.hh is the readers', tested there).
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.hh"
#include "proto/codec.hh"
#include "proto/pgr_format.hh"
#include "test/proto/one_byte_input.hh"
#include "proto/stream.hh"

namespace pm::test {

// Counts Write calls, to check a compressor batches its output.
class CountingOutput final : public OutputStream {
 public:
  void Write(std::string_view bytes) override {
    data_.append(bytes);
    ++writes_;
  }
  void Flush() override {}
  void Finish() override {}
  const std::string& data() const { return data_; }
  int writes() const { return writes_; }

 private:
  std::string data_;
  int writes_ = 0;
};

// A header and `samples` sample lines shaped like a real recording, with
// counters that move irregularly (so compression has real work to do).
inline std::vector<std::string> RecordingLines(int samples) {
  RecordingHeader header;
  header.host = "db1";
  header.kernel = "6.1.0";
  header.start_ns = 1'796'000'000'000'000'000;
  header.interval_ns = 10'000'000;
  header.num_core = 4;
  header.collectors_json = R"({"mem":{"fields":["MemTotal","MemFree"]}})";
  header.meta = {{"sql", "SELECT * FROM t WHERE id=42"}};
  std::string first = EncodeHeaderLine(header);
  first.pop_back();
  std::vector<std::string> lines{first};
  uint64_t state = 42;
  uint64_t counter = 1000;
  for (int i = 0; i < samples; ++i) {
    std::string line;
    int64_t t = header.start_ns + i * header.interval_ns;
    BeginSampleLine(line, t, 5'000'000'000 + i * header.interval_ns);
    line += ",\"cpu\":[";
    for (int core = 0; core <= header.num_core; ++core) {
      line += core ? ",[" : "[";
      for (int field = 0; field < 10; ++field) {
        state = state * 6364136223846793005u + 1442695040888963407u;
        counter += (state >> 33) % 97;
        if (field) line += ',';
        line += std::to_string(counter);
      }
      line += "]";
    }
    line += "],\"mem\":[16318464,";
    line += std::to_string(state % 9'000'000);
    line += "]}";
    lines.push_back(std::move(line));
  }
  return lines;
}

struct Compressed {
  std::string bytes;
  std::vector<size_t> flush_ends;  // size of `bytes` after each line's Flush
};

// Written as the recorder writes: one line, one Flush; Finish at the end
// unless `finish` is false (a recorder killed mid-way).
inline Compressed Compress(Compression c, const std::vector<std::string>& lines,
                           bool finish = true) {
  StringOutputStream sink;
  Compressed out;
  auto compressor = MakeCompressor(c, sink);
  for (const std::string& line : lines) {
    compressor->Write(line);
    compressor->Write("\n");
    compressor->Flush();
    out.flush_ends.push_back(sink.data().size());
  }
  if (finish) compressor->Finish();
  out.bytes = sink.data();
  return out;
}

struct Decoded {
  std::vector<std::string> lines;
  bool truncated = false;
  bool partial_tail = false;
  Compression compression = Compression::kPlain;
};

// Appends to `text` everything `input` decodes.
inline void ReadInto(InputStream& input, std::string& text) {
  char buf[4096];
  while (size_t n = input.Read(buf)) text.append(buf, n);
}

// ReadInto up to a damage, whose message is returned (empty: none): every
// byte before it comes out, as the codec contract says.
inline std::string ReadUntilError(InputStream& input, std::string& text) {
  try {
    ReadInto(input, text);
  } catch (const FormatError& e) {
    return e.what();
  }
  return {};
}

// The "\n"-terminated lines of `text`, as a reader takes them; the bytes
// after the last "\n" are a partial tail, not a line.
inline std::vector<std::string> CompleteLines(std::string_view text, bool* partial_tail = nullptr) {
  std::vector<std::string> lines;
  size_t start = 0;
  for (size_t nl; (nl = text.find('\n', start)) != std::string_view::npos; start = nl + 1)
    lines.emplace_back(text.substr(start, nl - start));
  if (partial_tail) *partial_tail = start < text.size();
  return lines;
}

// Throws what the decompressor throws.
inline Decoded DecodeLines(InputStream& source) {
  Decoded out;
  auto input = MakeDecompressor(source);
  std::string text;
  ReadInto(*input, text);
  out.lines = CompleteLines(text, &out.partial_tail);
  out.truncated = input->truncated();
  out.compression = input->compression();
  return out;
}

inline Decoded DecodeLines(std::string_view bytes) {
  MemoryInputStream source(bytes);
  return DecodeLines(source);
}

inline bool IsPrefix(const std::vector<std::string>& part,
                     const std::vector<std::string>& whole) {
  return part.size() <= whole.size() &&
         std::equal(part.begin(), part.end(), whole.begin());
}

inline std::vector<std::string> Concat(std::vector<std::string> a,
                                       const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

}  // namespace pm::test

#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

#include "common/error.hh"
#include "playback/reading/line_reader.hh"
#include "test/proto/stream_test_util.hh"

using namespace pm::test;

namespace {

struct Lines {
  std::vector<std::string> lines;
  std::vector<uint64_t> offsets;
  bool partial_tail = false;
};

Lines ReadAll(pm::InputStream& in, size_t max_line = pm::kMaxLineLength) {
  Lines out;
  pm::LineReader reader(in, max_line);
  while (auto line = reader.Next()) {
    out.lines.emplace_back(*line);
    out.offsets.push_back(reader.line_offset());
    CHECK(reader.line_number() == out.lines.size());
  }
  CHECK_FALSE(reader.Next());  // stays at the end
  out.partial_tail = reader.partial_tail();
  return out;
}

// Hands out the bytes in pieces of random size, each either a view of its
// own memory (Borrow) or copied into the reader's buffer, as a read-ahead
// thread's blocks and a pipe's reads come.
class PiecesInput final : public pm::InputStream {
 public:
  PiecesInput(std::string_view bytes, uint64_t seed, size_t max_piece)
      : rest_(bytes), rng_(seed), max_piece_(max_piece) {}
  size_t Read(std::span<char> buf) override {
    size_t n = std::min({buf.size(), rest_.size(), Piece()});
    std::copy_n(rest_.begin(), n, buf.begin());
    rest_.remove_prefix(n);
    return n;
  }
  std::span<const char> Borrow(std::span<char> scratch) override {
    if (rng_() % 2) return scratch.first(Read(scratch));
    std::span<const char> view(rest_.data(), std::min(rest_.size(), Piece()));
    rest_.remove_prefix(view.size());
    return view;
  }

 private:
  size_t Piece() { return 1 + rng_() % max_piece_; }
  std::string_view rest_;
  std::mt19937_64 rng_;
  size_t max_piece_;
};

}  // namespace

TEST_CASE("lines are complete, without their newline") {
  struct Row {
    std::string_view in;
    std::vector<std::string> lines;
    bool partial_tail;
  };
  const Row rows[] = {
      {"", {}, false},
      {"a\n", {"a"}, false},
      {"a", {}, true},
      {"a\nbc", {"a"}, true},
      {"\n\n", {"", ""}, false},
      {"a\r\n", {"a\r"}, false},  // JSON takes the CR as whitespace
      {"{\"x\":1}\n{\"x\":2}\n", {"{\"x\":1}", "{\"x\":2}"}, false},
  };
  for (const Row& row : rows) {
    CAPTURE(row.in);
    pm::MemoryInputStream whole(row.in);
    Lines got = ReadAll(whole);
    CHECK(got.lines == row.lines);
    CHECK(got.partial_tail == row.partial_tail);
    OneByteInput slow(row.in);
    Lines slow_got = ReadAll(slow);
    CHECK(slow_got.lines == row.lines);
    CHECK(slow_got.partial_tail == row.partial_tail);
  }
}

TEST_CASE("line offsets count bytes from the start of the input") {
  pm::MemoryInputStream in("ab\n\ncde\nf");
  Lines got = ReadAll(in);
  CHECK(got.offsets == std::vector<uint64_t>{0, 3, 4});
  CHECK(got.partial_tail);
}

TEST_CASE("a 1 MiB line between short ones, whole and byte by byte") {
  const std::string big(1 << 20, 'x');
  const std::string text = "first\n" + big + "\nlast\n";
  pm::MemoryInputStream whole(text);
  OneByteInput slow(text);
  for (pm::InputStream* in : {static_cast<pm::InputStream*>(&whole),
                              static_cast<pm::InputStream*>(&slow)}) {
    Lines got = ReadAll(*in);
    REQUIRE(got.lines.size() == 3);
    CHECK(got.lines[0] == "first");
    CHECK(got.lines[1] == big);
    CHECK(got.lines[2] == "last");
    CHECK(got.offsets[2] == 6 + big.size() + 1);
    CHECK_FALSE(got.partial_tail);
  }
}

TEST_CASE("many lines crossing buffer boundaries arrive intact") {
  std::string text;
  std::vector<std::string> want;
  for (int i = 0; i < 20000; ++i) {
    want.push_back(std::string(static_cast<size_t>(i % 37), 'a' + i % 26) +
                   std::to_string(i));
    text += want.back() + "\n";
  }
  pm::MemoryInputStream in(text);
  CHECK(ReadAll(in).lines == want);
}

TEST_CASE("a line over the cap is a FormatError naming the line") {
  pm::MemoryInputStream exact("0123456789abcdef\nok\n");
  CHECK(ReadAll(exact, 16).lines ==
        std::vector<std::string>{"0123456789abcdef", "ok"});
  pm::MemoryInputStream over("short\n0123456789abcdefg\n");
  pm::LineReader reader(over, 16);
  CHECK(reader.Next() == "short");
  CHECK_THROWS_WITH_AS(reader.Next(),
                       doctest::Contains("line 2 (at byte 6)"),
                       pm::FormatError);
  // An unterminated tail over the cap is garbage too, not a partial line.
  const std::string long_tail(40, 'z');
  pm::MemoryInputStream tail(long_tail);
  pm::LineReader tail_reader(tail, 16);
  CHECK_THROWS_AS(tail_reader.Next(), pm::FormatError);
}

// What a reader gets does not depend on how the bytes come: views or
// copies, whole or in pieces; lines, offsets, the cut tail and the error
// of a line over the cap alike.
TEST_CASE("borrowed views in pieces read as bytes copied one at a time") {
  std::mt19937_64 rng(3);
  for (int round = 0; round < 300; ++round) {
    std::string text;
    for (int i = 0, n = static_cast<int>(rng() % 40); i < n; ++i)
      text += std::string(rng() % 3 == 0 ? rng() % 70 : rng() % 8, 'a' + i % 26) + "\n";
    if (rng() % 2) text += std::string(rng() % 20, 'z');  // a cut last line
    const size_t max_line = rng() % 4 == 0 ? 40 : pm::kMaxLineLength;
    CAPTURE(text);
    CAPTURE(max_line);
    auto read = [&](pm::InputStream& in) {
      try {
        return ReadAll(in, max_line);
      } catch (const pm::FormatError& e) {
        return Lines{{e.what()}, {}, false};
      }
    };
    OneByteInput bytes(text);
    Lines want = read(bytes);
    pm::MemoryInputStream whole(text);
    CHECK(read(whole).lines == want.lines);
    for (size_t max_piece : {1, 5, 64}) {
      PiecesInput pieces(text, rng(), max_piece);
      Lines got = read(pieces);
      CHECK(got.lines == want.lines);
      CHECK(got.offsets == want.offsets);
      CHECK(got.partial_tail == want.partial_tail);
    }
  }
}

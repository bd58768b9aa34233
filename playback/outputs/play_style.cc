#include "playback/outputs/play_style.hh"

#include <algorithm>
#include <cstddef>
#include <cstring>

namespace pm {
namespace {

constexpr std::string_view kKey = "\x1b[31m";
constexpr std::string_view kString = "\x1b[35m";
constexpr std::string_view kInteger = "\x1b[32m";
constexpr std::string_view kFloat = "\x1b[36m";
constexpr std::string_view kReset = "\x1b[0m";

// A line holds 79 columns: PerfMonger's width of 80 less one.
constexpr int kLineColumns = 79;
// PerfMonger's quirk: a line wrapped inside an array counts its indentation
// this many columns short.
constexpr int kArrayWrapShortfall = 2;

// Columns a text takes: UTF-8 code points (continuation bytes take none).
int Width(std::string_view text) {
  int n = 0;
  for (char c : text) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

// The palette entry for a scalar token; empty for true, false and null.
std::string_view ColorOf(std::string_view token) {
  if (token.empty()) return {};
  if (token.front() == '"') return kString;
  if (token == "true" || token == "false" || token == "null") return {};
  for (char c : token)  // a loop, not find_first_of: a memchr per byte
    if (c == '.' || c == 'e' || c == 'E' || c == 'I' || c == 'N')
      return kFloat;  // NaN, +Inf, -Inf: a %f's spellings
  return kInteger;
}

bool IsDelimiter(char c) { return c == ',' || c == ':' || c == ']' || c == '}'; }

// Appends to a string through a cursor: the styled line is a thousand
// small pieces, and std::string::append costs a call and a capacity check
// each. The string is grown ahead (zeros) and cut to what was written when
// the sink goes away, exception or not.
class Sink {
 public:
  Sink(std::string& s, size_t expect) : s_(s), n_(s.size()) { s_.resize(n_ + expect); }
  ~Sink() { s_.resize(n_); }
  Sink(const Sink&) = delete;
  Sink& operator=(const Sink&) = delete;

  void Add(std::string_view t) {
    std::memcpy(Room(t.size()), t.data(), t.size());
    n_ += t.size();
  }
  void Add(char c) {
    *Room(1) = c;
    ++n_;
  }
  void Spaces(size_t count) {
    std::memset(Room(count), ' ', count);
    n_ += count;
  }

 private:
  char* Room(size_t k) {
    if (s_.size() - n_ < k) s_.resize(n_ + std::max<size_t>(k, 4096));
    return s_.data() + n_;
  }

  std::string& s_;
  size_t n_;  // bytes of s_ that are text
};

class Styler {
 public:
  Styler(std::string& out, std::string_view text, PlayStyle style)
      : out_(out, 4 * text.size() + 64), s_(text), style_(style) {}

  void Run() {
    while (pos_ < s_.size()) Value(1);  // one value; a malformed rest is copied
  }

 private:
  // `level`: the indentation of the lines this value may start.
  void Value(int level) {
    if (pos_ >= s_.size()) return;
    if (s_[pos_] == '{') return Object(level);
    if (s_[pos_] == '[') return Array(level);
    std::string_view token = NextToken();
    Paint(ColorOf(token), token);
  }

  void Object(int level) {
    Put("{");
    ++pos_;
    for (bool first = true; pos_ < s_.size() && s_[pos_] != '}'; first = false) {
      if (!first && s_[pos_] == ',') {
        Put(",");
        ++pos_;
      }
      Member(level, first);
    }
    Close('}');
  }

  void Member(int level, bool first) {
    std::string_view key = NextToken();
    bool colon = pos_ < s_.size() && s_[pos_] == ':';
    pos_ += colon;
    if (style_.pretty && !first) BeforeMember(level, key);
    Paint(kKey, key);
    if (colon) Put(style_.pretty ? ": " : ":");
    Value(level + 1);
  }

  // The line break or space before a member that is not its object's first.
  void BeforeMember(int level, std::string_view key) {
    char kind = pos_ < s_.size() ? s_[pos_] : '\0';
    if (kind == '{') {
      NewLine(level);
      col_ = level;
    } else if (kind == '[') {
      NewLine(level);
      col_ += level;  // PerfMonger's quirk: the count is not reset here
    } else if (col_ + 1 + ScalarMemberWidth(key) > kLineColumns) {
      NewLine(level);
      col_ = level - (arrays_ > 0 ? kArrayWrapShortfall : 0);
    } else {
      Put(" ");
    }
  }

  // `"key": value` and what follows it up to the next place a line may
  // break: closing brackets and a comma.
  int ScalarMemberWidth(std::string_view key) {
    size_t start = pos_;
    int width = Width(key) + 2 + Width(NextToken());
    size_t end = pos_;
    pos_ = start;
    while (end < s_.size() && (s_[end] == '}' || s_[end] == ']')) ++end, ++width;
    if (end < s_.size() && s_[end] == ',') ++width;
    return width;
  }

  void Array(int level) {
    Put("[");
    ++pos_;
    ++arrays_;
    for (bool first = true; pos_ < s_.size() && s_[pos_] != ']'; first = false) {
      if (!first && s_[pos_] == ',') {
        Put(style_.pretty ? ", " : ",");
        ++pos_;
      }
      Value(level + 1);
    }
    --arrays_;
    Close(']');
  }

  void Close(char bracket) {
    if (pos_ >= s_.size()) return;  // cut short: not ours to complete
    Put(std::string_view(&bracket, 1));
    ++pos_;
  }

  // A string (escapes skipped) or a bare token up to the next delimiter;
  // never empty while input remains, so every loop moves on.
  std::string_view NextToken() {
    size_t end = pos_;
    if (end < s_.size() && s_[end] == '"') {
      for (++end; end < s_.size() && s_[end] != '"';) end += s_[end] == '\\' ? 2 : 1;
      end = end < s_.size() ? end + 1 : s_.size();
    } else {
      while (end < s_.size() && !IsDelimiter(s_[end])) ++end;
      if (end == pos_ && end < s_.size()) ++end;  // a stray delimiter
    }
    std::string_view token = s_.substr(pos_, end - pos_);
    pos_ = end;
    return token;
  }

  void NewLine(int level) {
    out_.Add('\n');
    out_.Spaces(static_cast<size_t>(level));
  }

  void Paint(std::string_view color, std::string_view token) {
    bool paint = style_.color && !color.empty();
    if (paint) out_.Add(color);
    Put(token);
    if (paint) out_.Add(kReset);
  }

  void Put(std::string_view text) {
    out_.Add(text);
    col_ += Width(text);
  }

  Sink out_;
  std::string_view s_;
  PlayStyle style_;
  size_t pos_ = 0;
  int col_ = 0;     // the column as PerfMonger counts it
  int arrays_ = 0;  // arrays open around the current value
};

}  // namespace

void AppendStyledPlayJson(std::string& out, std::string_view compact,
                          PlayStyle style) {
  Styler(out, compact, style).Run();
}

}  // namespace pm

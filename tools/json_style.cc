#include "tools/json_style.hh"

#include <vector>

namespace pm {
namespace {

constexpr std::string_view kKey = "\x1b[34;1m";
constexpr std::string_view kString = "\x1b[32;1m";
constexpr std::string_view kNumber = "\x1b[36;1m";
constexpr std::string_view kBool = "\x1b[33;1m";
constexpr std::string_view kNull = "\x1b[30;1m";
constexpr std::string_view kReset = "\x1b[0m";

class Styler {
 public:
  Styler(std::string& out, bool pretty, bool color)
      : out_(out), pretty_(pretty), color_(color) {}

  void Run(std::string_view s) {
    for (size_t i = 0; i < s.size();) i = Step(s, i);
  }

 private:
  size_t Step(std::string_view s, size_t i) {
    char c = s[i];
    switch (c) {
      case '"': return String(s, i);
      case '{': case '[': return Open(s, i);
      case '}': case ']':
        if (open_.empty()) return i + 1;  // unbalanced: not ours to fix
        --depth_;
        open_.pop_back();
        Newline();
        out_.push_back(c);
        return i + 1;
      case ',':
        out_.push_back(',');
        Newline();
        key_next_ = !open_.empty() && open_.back();
        return i + 1;
      case ':':
        out_.append(pretty_ ? ": " : ":");
        return i + 1;
      case ' ': case '\t': case '\n': case '\r':
        return i + 1;
      default: return Scalar(s, i);
    }
  }

  size_t Open(std::string_view s, size_t i) {
    out_.push_back(s[i]);
    if (i + 1 < s.size() && (s[i + 1] == '}' || s[i + 1] == ']')) {
      out_.push_back(s[i + 1]);
      return i + 2;
    }
    open_.push_back(s[i] == '{');
    key_next_ = open_.back();
    ++depth_;
    Newline();
    return i + 1;
  }

  size_t String(std::string_view s, size_t i) {
    size_t end = i + 1;
    while (end < s.size() && s[end] != '"') end += s[end] == '\\' ? 2 : 1;
    end = end < s.size() ? end + 1 : s.size();
    Paint(key_next_ ? kKey : kString, s.substr(i, end - i));
    key_next_ = false;
    return end;
  }

  size_t Scalar(std::string_view s, size_t i) {
    size_t end = s.find_first_of(",:]} \t\r\n", i);
    if (end == std::string_view::npos) end = s.size();
    std::string_view token = s.substr(i, end - i);
    std::string_view color = token == "null"                     ? kNull
                             : token == "true" || token == "false" ? kBool
                                                                   : kNumber;
    Paint(color, token);
    return end;
  }

  void Paint(std::string_view color, std::string_view token) {
    if (color_) out_.append(color);
    out_.append(token);
    if (color_) out_.append(kReset);
  }

  void Newline() {
    if (!pretty_) return;
    out_.push_back('\n');
    out_.append(2 * static_cast<size_t>(depth_), ' ');
  }

  std::string& out_;
  bool pretty_;
  bool color_;
  int depth_ = 0;
  std::vector<bool> open_;  // per open container: true for an object
  bool key_next_ = false;
};

}  // namespace

void AppendStyledJson(std::string& out, std::string_view compact, bool pretty,
                      bool color) {
  Styler(out, pretty, color).Run(compact);
}

}  // namespace pm

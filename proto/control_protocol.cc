#include "proto/control_protocol.hh"

#include <algorithm>
#include <array>
#include <iterator>

namespace pm {
namespace {

constexpr std::string_view kUnknownCommand = "unknown_command";
constexpr std::string_view kBadArgument = "bad_argument";
constexpr std::string_view kLineTooLong = "line_too_long";
constexpr std::string_view kBadByte = "bad_byte";

struct VerbName {
  std::string_view name;
  Verb verb;
};

constexpr std::array<VerbName, 10> kVerbs = {{
    {"pause", Verb::kPause},
    {"disable", Verb::kPause},
    {"resume", Verb::kResume},
    {"enable", Verb::kResume},
    {"mark", Verb::kMark},
    {"sample", Verb::kSample},
    {"ping", Verb::kPing},
    {"status", Verb::kStatus},
    {"stop", Verb::kStop},
    {"pid", Verb::kPid},
}};

bool IsPrintable(char c) { return c >= 0x20 && c <= 0x7e; }

Verb LookupVerb(std::string_view name) {
  for (const VerbName& v : kVerbs)
    if (v.name == name) return v.verb;
  return Verb::kNone;
}

// The verb is everything before the first SP (the whole line without one).
std::string_view VerbText(std::string_view line) {
  return line.substr(0, line.find(' '));
}

// What a reply echoes: the verb's first kMaxEchoedVerb bytes, minus the
// bad ones, so it is always printable ASCII.
std::string EchoedVerb(std::string_view line) {
  std::string_view verb = VerbText(line).substr(0, kMaxEchoedVerb);
  std::string echo;
  std::copy_if(verb.begin(), verb.end(), std::back_inserter(echo), IsPrintable);
  return echo;
}

// A process id as the kernel prints one: 1 to 10 digits, no leading 0.
bool IsPid(std::string_view arg) {
  return !arg.empty() && arg.size() <= 10 && arg[0] != '0' &&
         std::all_of(arg.begin(), arg.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Validates the argument of `verb`; returns the error code or "".
std::string_view CheckArgument(Verb verb, std::string_view line) {
  size_t sp = line.find(' ');
  bool takes_one = verb == Verb::kMark || verb == Verb::kPid;
  if (!takes_one) return sp == std::string_view::npos ? "" : kBadArgument;
  if (sp == std::string_view::npos) return kBadArgument;
  std::string_view arg = line.substr(sp + 1);
  if (verb == Verb::kPid) return IsPid(arg) ? "" : kBadArgument;
  return arg.size() >= 1 && arg.size() <= kMaxLabel ? "" : kBadArgument;
}

// A complete line: its bytes before the LF, without the final CR.
ParsedLine DecodeLine(std::string_view line, uint64_t seq) {
  ParsedLine p;
  p.seq = seq;
  p.cmd = EchoedVerb(line);
  if (!std::all_of(line.begin(), line.end(), IsPrintable)) {
    p.error = kBadByte;
    return p;
  }
  Verb verb = LookupVerb(VerbText(line));
  if (verb == Verb::kNone) {
    p.error = kUnknownCommand;
    return p;
  }
  p.error = CheckArgument(verb, line);
  if (!p.error.empty()) return p;
  p.verb = verb;
  if (verb == Verb::kMark || verb == Verb::kPid) p.arg = line.substr(line.find(' ') + 1);
  return p;
}

}  // namespace

void CommandDecoder::Feed(std::string_view bytes, std::vector<ParsedLine>& out) {
  while (!bytes.empty()) {
    size_t lf = bytes.find('\n');
    AppendSegment(bytes.substr(0, lf), out);
    if (lf == std::string_view::npos) return;
    EndLine(out);
    bytes.remove_prefix(lf + 1);
  }
}

void CommandDecoder::Finish(std::vector<ParsedLine>& out) { EndLine(out); }

// Bytes of the current line, no LF among them. A CR at their end is held
// back in pending_cr_: only the next byte tells whether it is the final CR
// (dropped) or a content byte (a bad one).
void CommandDecoder::AppendSegment(std::string_view segment,
                                   std::vector<ParsedLine>& out) {
  if (skipping_ || segment.empty()) return;
  if (pending_cr_) {
    pending_cr_ = false;
    AppendContent("\r", out);
  }
  bool ends_with_cr = segment.back() == '\r';
  if (ends_with_cr) segment.remove_suffix(1);
  AppendContent(segment, out);
  if (ends_with_cr && !skipping_) pending_cr_ = true;
}

// Keeps at most kMaxLine bytes; the first byte past them ends the line
// with line_too_long, and the rest of it is skipped up to its LF.
void CommandDecoder::AppendContent(std::string_view bytes,
                                   std::vector<ParsedLine>& out) {
  if (skipping_) return;
  size_t room = kMaxLine - line_.size();
  line_.append(bytes.substr(0, room));
  if (bytes.size() <= room) return;
  ParsedLine p;
  p.seq = ++seq_;
  p.cmd = EchoedVerb(line_);
  p.error = kLineTooLong;
  out.push_back(std::move(p));
  line_.clear();
  skipping_ = true;
}

void CommandDecoder::EndLine(std::vector<ParsedLine>& out) {
  bool was_skipping = skipping_;
  skipping_ = false;
  pending_cr_ = false;
  if (!was_skipping && !line_.empty()) out.push_back(DecodeLine(line_, ++seq_));
  line_.clear();
}

}  // namespace pm

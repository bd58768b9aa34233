// The command protocol of --cmd-fd (DESIGN.md §5), as an incremental,
// bounded decoder: bytes in, parsed lines out, tested byte by byte.
//
// Input: text lines `verb [SP arg] LF`, at most kMaxLine bytes before the
// LF, an optional CR before the LF. Verbs: pause, resume (aliases disable,
// enable), mark LABEL (printable ASCII, 1..kMaxLabel bytes), sample, ping,
// status, stop, pid PID (1 to 10 digits, no leading 0: a process named to
// the system under test from then on, issue 47). Empty lines (also a lone CR) are ignored and get no
// sequence number; every other line gets the next one, from 1, and exactly
// one ParsedLine, in order:
//   - a command (error empty), or
//   - an error: "unknown_command" (no such verb), "bad_argument" (an
//     argument where none is taken, none or a bad one where one is needed),
//     "bad_byte" (NUL, another control byte but the final CR, or a byte
//     >= 0x80 anywhere in the line), "line_too_long" (one ParsedLine for the
//     whole overlong line, reported as soon as the limit is passed; the
//     rest of that line is skipped up to its LF).
// `cmd` echoes the verb as written (its first kMaxEchoedVerb bytes, with
// bad bytes dropped), so a reply can name what it answers.
//
// Details:
//   - The line is the bytes before its LF; one final CR is dropped and does
//     not count towards kMaxLine, so a 256-byte line may end in CR LF. Any
//     other CR is a bad byte. A line of only CR is empty.
//   - The verb is everything before the first SP, case-sensitive; the
//     argument is everything after it, spaces included (`mark  x` has the
//     label " x"). Any SP after the verb makes an argument, even an empty
//     one: `pause ` is bad_argument, and so are `mark` and `mark `. A leading
//     SP gives an empty verb: unknown_command with cmd "".
//   - Bad bytes are those outside 0x20..0x7e (TAB and DEL included). Their
//     check covers the whole line and comes first: bad_byte, then
//     unknown_command, then bad_argument. line_too_long wins over all, as
//     it is reported before the line ends.
//   - On error, verb is kNone and arg empty.
//   - Finish() decodes a pending partial line (a trailing CR dropped), adds
//     nothing for the tail of an overlong line, and resets the decoder.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pm {

inline constexpr size_t kMaxLine = 256;
inline constexpr size_t kMaxLabel = 128;
inline constexpr size_t kMaxEchoedVerb = 32;

enum class Verb { kNone, kPause, kResume, kMark, kSample, kPing, kStatus, kStop, kPid };

struct ParsedLine {
  uint64_t seq = 0;
  std::string cmd;       // the verb as written (for replies)
  Verb verb = Verb::kNone;
  std::string arg;       // mark's label, pid's digits
  std::string error;     // empty: a valid command
};

class CommandDecoder {
 public:
  // Appends one ParsedLine per completed (or overlong) non-empty line.
  void Feed(std::string_view bytes, std::vector<ParsedLine>& out);
  // Input ended: a last line without LF is decoded as if it had one.
  void Finish(std::vector<ParsedLine>& out);

 private:
  void AppendSegment(std::string_view segment, std::vector<ParsedLine>& out);
  void AppendContent(std::string_view bytes, std::vector<ParsedLine>& out);
  void EndLine(std::vector<ParsedLine>& out);

  std::string line_;      // the current line, at most kMaxLine bytes
  bool pending_cr_ = false; // a CR ended the last bytes: final, or content?
  bool skipping_ = false; // inside an overlong line, already reported
  uint64_t seq_ = 0;
};

}  // namespace pm

#include "tools/readers/cat_cli.hh"

#include <cstdio>
#include <string>
#include <vector>

#include "common/error.hh"
#include "tools/output_buffer.hh"
#include "tools/readers/recording_input.hh"
#include "tools/readers/window_args.hh"

namespace pm {
namespace {

constexpr char kCatAbout[] =
    R"(Print a native recording (.pgr, plain, gzip or zstd; FILE or stdin) as
version 1 JSON lines: absolute counters, whatever version it was written
in, so that `perfmonger cat FILE | jq` works for every recording. Several
FILEs or a DIR: one timeline, ordered by start (a rotation's shared sample
once, a gap between as a pause and a resume event), as play reads them. A
damaged line is left out with a warning (in version 2, the lines up to
the next keyframe with it), and every line after it that reads is
printed. PerfMonger's gob recordings have no lines: use play or summary
on them.
)";

constexpr char kCatFooter[] =
    R"(Exit status: 0 printed (a truncated recording too, with a warning), 1 usage
error or unreadable input, 2 not a native recording, or lines lost to damage
(once every line that could be read is printed).
)";

Command<CatArgs> BuildCatCommand() {
  Command<CatArgs> c{{"cat", "[options] [FILE...|DIR]", kCatAbout, kCatFooter}, {}};
  for (Option<CatArgs>& o : WindowOptions(&CatArgs::window)) c.options.push_back(std::move(o));
  c.options.push_back(
      MakeOption<CatArgs>({.name = "help", .short_name = 'h', .help = "show this help"},
                          [](CatArgs& a, const Given& g) { a.help = g.on; }));
  return c;
}

// The header with "version":1: what follows it is v1 text.
std::string AsV1Header(std::string_view line) {
  std::string out(line);
  size_t at = out.find("\"version\":2,");
  if (at != std::string::npos) out[at + 10] = '1';
  return out;
}

// A window's header keeps the whole recording's origin (pgr(5)), so that
// every reader counts the cut's elapsed times as the window's; a header
// that has one (a cut of a cut) keeps its own.
std::string WithOrigin(std::string header, const RecordingInput& input) {
  if (input.info().origin || !input.origin() || !header.ends_with('}')) return header;
  header.pop_back();
  return header.append(",\"origin\":{\"t\":")
      .append(std::to_string(input.origin()->time_ns))
      .append(",\"mono\":")
      .append(std::to_string(input.origin()->mono_ns))
      .append("}}");
}

// Every item's line, through the window; samples are not paired, so none
// is left out for its width. The header waits for the first item: a
// window's needs the origin.
int Cat(const CatArgs& args) {
  RecordingInput input(args.files, {args.window, true});
  if (!input.Open()) return 0;  // nothing at all
  if (input.info().format == "perfmonger-gob")
    throw FormatError(input.name() + ": not a native recording (cat prints .pgr files; use "
                      "play or summary on PerfMonger's gob recordings)");
  input.KeepUnknownEvents();
  input.CheckMarksFirst();
  OutputBuffer out(1);
  RawSample sample;
  RecordingEvent event;
  RecordingReader::Item item = input.Next(sample, event);
  std::string header = AsV1Header(input.header_text());
  if (!args.window.whole()) header = WithOrigin(std::move(header), input);
  if (!header.empty()) out.buffer().append(header).push_back('\n');
  for (; item != RecordingReader::Item::kEnd; item = input.Next(sample, event)) {
    out.buffer().append(input.line_text()).push_back('\n');
    out.MaybeFlush();
  }
  out.Flush();
  input.Finish();
  return input.ExitStatus();
}

}  // namespace

const Command<CatArgs>& CatCommand() {
  static const Command<CatArgs> command = BuildCatCommand();
  return command;
}

CatArgs ParseCatArgs(int argc, char** argv) {
  CatArgs a;
  std::vector<std::string> files = CatCommand().Parse(argc, argv, a);
  if (a.help) return a;
  CheckWindow(a.window);
  CheckJoinable(files, "cat");
  a.files = files;
  return a;
}

int CatMain(int argc, char** argv) {
  return RunReaderCommand("cat", [&] {
    CatArgs args = ParseCatArgs(argc, argv);
    if (args.help) {
      std::fputs(CatCommand().Usage().c_str(), stdout);
      return 0;
    }
    return Cat(args);
  });
}

}  // namespace pm

#include "tools/cat_cli.hh"

#include <fcntl.h>

#include <cstdio>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "common/error.hh"
#include "common/io.hh"
#include "playback/delta_decoder.hh"
#include "playback/line_reader.hh"
#include "proto/codec.hh"
#include "proto/pgr_format.hh"
#include "tools/output_buffer.hh"
#include "tools/recording_input.hh"

namespace pm {
namespace {

constexpr char kCatAbout[] =
    R"(Print a native recording (.pgr, plain, gzip or zstd; FILE or stdin) as
version 1 JSON lines: absolute counters, whatever version it was written
in, so that `perfmonger cat FILE | jq` works for every recording. In a
version 2 recording a corrupt line costs the lines up to the next keyframe
(a warning names them). PerfMonger's gob recordings have no lines: use
play or summary on them.
)";

Command<CatArgs> BuildCatCommand() {
  Command<CatArgs> c{{"cat", "[FILE]", kCatAbout, ""}, {}};
  c.options.push_back(
      MakeOption<CatArgs>({.name = "help", .short_name = 'h', .help = "show this help"},
                          [](CatArgs& a, const Given& g) { a.help = g.on; }));
  return c;
}

// The header with "version":1: what follows it is v1 text.
std::string AsV1Header(std::string_view line) {
  if (line.find("\"format\":\"perfmonger-pgr\"") == std::string_view::npos)
    throw FormatError("not a native recording (cat prints .pgr files; use "
                      "play or summary on PerfMonger's gob recordings)");
  std::string out(line);
  size_t at = out.find("\"version\":2,");
  if (at != std::string::npos) out[at + 10] = '1';
  return out;
}

// Lines of a v2 recording rebuilt; corrupt spans skipped to a keyframe.
void CatLines(LineReader& lines, bool v2, OutputBuffer& out, const std::string& name) {
  DeltaDecoder delta;
  std::optional<uint64_t> lost_from;
  while (std::optional<std::string_view> line = lines.Next()) {
    if (!v2) {
      out.buffer().append(*line);
    } else if (lost_from && DeltaDecoder::IsDelta(*line)) {
      continue;
    } else {
      try {
        out.buffer().append(delta.Decode(*line));
      } catch (const FormatError& e) {
        delta.Lose();
        if (!lost_from) lost_from = lines.line_number();
        std::fprintf(stderr, "warning: %s: line %llu: %s; skipping to the next keyframe\n",
                     name.c_str(), static_cast<unsigned long long>(lines.line_number()),
                     e.what());
        continue;
      }
      lost_from.reset();
    }
    out.buffer().push_back('\n');
    out.MaybeFlush();
  }
}

int Cat(const std::string& path) {
  UniqueFd fd;
  if (!path.empty() && path != "-") {
    try {
      fd = OpenAt(AT_FDCWD, path, O_RDONLY);
    } catch (const std::system_error& e) {
      throw InputError(e.what());
    }
  }
  std::string name = fd ? path : "stdin";
  FdInputStream raw(fd ? fd.Get() : 0);
  std::unique_ptr<DecompressingInput> in = MakeDecompressor(raw);
  LineReader lines(*in);
  OutputBuffer out(1);
  std::optional<std::string_view> header = lines.Next();
  if (header) {
    bool v2 = header->find("\"version\":2,") != std::string_view::npos;
    out.buffer().append(AsV1Header(*header)).push_back('\n');
    CatLines(lines, v2, out, name);
  }
  out.Flush();
  if (lines.partial_tail() || in->truncated())
    std::fprintf(stderr, "warning: %s: recording truncated\n", name.c_str());
  return 0;
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
  if (files.size() > 1)
    throw UsageError("one recording at a time: unexpected '" + files[1] +
                     "' (see perfmonger cat --help)");
  if (!files.empty()) a.file = files[0];
  return a;
}

int CatMain(int argc, char** argv) {
  return RunReaderCommand("cat", [&] {
    CatArgs args = ParseCatArgs(argc, argv);
    if (args.help) {
      std::fputs(CatCommand().Usage().c_str(), stdout);
      return 0;
    }
    return Cat(args.file);
  });
}

}  // namespace pm

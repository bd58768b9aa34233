#include "tools/command_catalog.hh"

#include "tools/readers/cat_cli.hh"
#include "tools/completion/completion_cli.hh"
#include "tools/diff/diff_cli.hh"
#include "tools/fingerprint/fingerprint_cli.hh"
#include "tools/live/live_cli.hh"
#include "tools/plot/plot_args.hh"
#include "tools/readers/reader_args.hh"
#include "tools/record/record_args.hh"
#include "tools/record/stat_cli.hh"

namespace pm {
namespace {

struct Shape {
  std::vector<std::string_view> aliases;
  std::string_view summary;
  Completes operand = Completes::kNothing;
  std::string_view operand_choices = {};
};

template <class Args, class Parse>
CommandEntry Entry(const Command<Args>& command, Shape shape, Parse parse) {
  return {command.text.name, std::move(shape.aliases), shape.summary, command.Infos(),
          command.Usage(), [parse](int argc, char** argv) { parse(argc, argv); },
          shape.operand, shape.operand_choices};
}

std::vector<CommandEntry> BuildCatalog() {
  using enum Completes;
  return {
      Entry(RecordCommand(), {{}, "record system activity into a .pgr file"},
            ParseRecordArgs),
      Entry(PlayCommand(),
            {{}, "print a recording as JSON lines of rates, one per sample pair", kRecording},
            ParsePlayArgs),
      Entry(SummaryCommand(),
            {{"summarize"}, "summarize a recording: average CPU, disk, network usage", kRecording},
            ParseSummaryArgs),
      Entry(FingerprintCommand(),
            {{"fp", "bukko"}, "gather the machine's configuration into a .tar.gz", kFile},
            ParseFingerprintArgs),
      Entry(PlotCommand(),
            {{}, "draw a recording's charts (CPU, disk, memory, network) with gnuplot", kRecording},
            ParsePlotArgs),
      Entry(StatCommand(),
            {{}, "run a command while recording, then summarize (stat -- CMD)", kCommand},
            ParseStatArgs),
      Entry(LiveCommand(), {{}, "record and print a table or play lines as the samples are taken"},
            ParseLiveArgs),
      Entry(InitShellCommand(),
            {{}, "print shell completion for eval, the shell detected or named", kNothing,
             "bash zsh fish -"},
            ParseInitShellArgs),
      Entry(CompletionCommand(),
            {{}, "print the completion script for bash, zsh or fish", kNothing,
             "bash zsh fish"},
            ParseCompletionArgs),
      Entry(DiffCommand(),
            {{}, "compare runs phase by phase: which series changed",
             kRecording},
            ParseDiffArgs),
      Entry(CatCommand(),
            {{}, "print a recording as version 1 JSON lines (absolute counters)", kRecording},
            ParseCatArgs),
  };
}

// "(alias: summarize)", "(aliases: fp, bukko)".
std::string AliasNote(const CommandEntry& c) {
  std::string out = c.aliases.size() > 1 ? "(aliases: " : "(alias: ";
  for (size_t i = 0; i < c.aliases.size(); ++i) out.append(i ? ", " : "").append(c.aliases[i]);
  return out + ")";
}

}  // namespace

const std::vector<CommandEntry>& CommandCatalog() {
  static const std::vector<CommandEntry> catalog = BuildCatalog();
  return catalog;
}

const std::vector<OptionInfo>& ToplevelOptions() {
  static const std::vector<OptionInfo> options = {
      {.name = "help", .short_name = 'h', .help = "list the commands"},
      {.name = "version", .short_name = 'v', .help = "print the version and the build"},
  };
  return options;
}

std::string ToplevelUsage() {
  std::string out = "Usage: perfmonger [-h|--help] [-v|--version] COMMAND [options]\n\nCommands:\n";
  for (const CommandEntry& c : CommandCatalog()) {
    std::string head = "  " + std::string(c.name);
    out += head;
    out.append(head.size() < 14 ? 14 - head.size() : 1, ' ');
    out.append(c.summary);
    if (!c.aliases.empty()) out.append("\n").append(14, ' ').append(AliasNote(c));
    out.append("\n");
  }
  out.append("\nRun 'perfmonger COMMAND --help' for a command's options.\n");
  return out;
}

}  // namespace pm

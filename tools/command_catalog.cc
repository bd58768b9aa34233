#include "tools/command_catalog.hh"

#include "tools/cat_cli.hh"
#include "tools/completion_cli.hh"
#include "tools/fingerprint_cli.hh"
#include "tools/live_cli.hh"
#include "tools/plot_args.hh"
#include "tools/reader_args.hh"
#include "tools/record_args.hh"
#include "tools/stat_cli.hh"

namespace pm {
namespace {

struct Shape {
  std::vector<std::string_view> aliases;
  std::string_view summary;
  OperandKind operand = OperandKind::kNone;
  std::string_view operand_choices = {};
};

template <class Args, class Parse>
CommandEntry Entry(const Command<Args>& command, Shape shape, Parse parse) {
  return {command.text.name, std::move(shape.aliases), shape.summary, command.Infos(),
          command.Usage(), [parse](int argc, char** argv) { parse(argc, argv); },
          shape.operand, shape.operand_choices};
}

std::vector<CommandEntry> BuildCatalog() {
  using enum OperandKind;
  return {
      Entry(RecordCommand(), {{}, "record system activity into a .pgr file"},
            ParseRecordArgs),
      Entry(PlayCommand(),
            {{}, "print a recording as JSON lines of rates, one per sample pair", kFile},
            ParsePlayArgs),
      Entry(SummaryCommand(),
            {{"summarize"}, "summarize a recording: average CPU, disk, network usage", kFile},
            ParseSummaryArgs),
      Entry(FingerprintCommand(),
            {{"fp", "bukko"}, "gather the machine's configuration into a .tar.gz", kFile},
            ParseFingerprintArgs),
      Entry(PlotCommand(),
            {{}, "draw a recording's charts (CPU, disk, memory, network) with gnuplot", kFile},
            ParsePlotArgs),
      Entry(StatCommand(),
            {{}, "run a command while recording, then summarize (stat -- CMD)", kCommand},
            ParseStatArgs),
      Entry(LiveCommand(), {{}, "record and print play lines as the samples are taken"},
            ParseLiveArgs),
      Entry(InitShellCommand(),
            {{}, "print shell completion for eval, the shell detected or named", kChoice,
             "bash zsh fish -"},
            ParseInitShellArgs),
      Entry(CompletionCommand(),
            {{}, "print the completion script for bash, zsh or fish", kChoice,
             "bash zsh fish"},
            ParseCompletionArgs),
      Entry(CatCommand(),
            {{}, "print a recording as version 1 JSON lines (absolute counters)", kFile},
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

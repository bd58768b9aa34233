#include "tools/command_catalog.hh"

#include "tools/live_cli.hh"
#include "tools/reader_args.hh"
#include "tools/record_args.hh"
#include "tools/stat_cli.hh"

namespace pm {
namespace {

template <class Args, class Parse>
CommandEntry Entry(const Command<Args>& command, std::vector<std::string_view> aliases,
                   std::string_view summary, Parse parse) {
  return {command.text.name, std::move(aliases), summary, command.Infos(), command.Usage(),
          [parse](int argc, char** argv) { parse(argc, argv); }};
}

}  // namespace

const std::vector<CommandEntry>& CommandCatalog() {
  static const std::vector<CommandEntry> catalog = {
      Entry(RecordCommand(), {}, "record system activity into a .pgr file", ParseRecordArgs),
      Entry(PlayCommand(), {}, "print a recording as JSON lines of rates, one per sample pair",
            ParsePlayArgs),
      Entry(SummaryCommand(), {"summarize"},
            "summarize a recording: average CPU, disk, network usage", ParseSummaryArgs),
      Entry(StatCommand(), {}, "run a command while recording, then summarize (stat -- CMD)",
            ParseStatArgs),
      Entry(LiveCommand(), {}, "record and print play lines as the samples are taken",
            ParseLiveArgs),
  };
  return catalog;
}

}  // namespace pm

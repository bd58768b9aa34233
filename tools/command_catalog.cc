#include "tools/command_catalog.hh"

#include "tools/reader_args.hh"
#include "tools/record_args.hh"

namespace pm {
namespace {

template <class Args>
CommandEntry Entry(const Command<Args>& command, std::vector<std::string_view> aliases) {
  return {command.text.name, std::move(aliases), command.Infos(), command.Usage()};
}

}  // namespace

const std::vector<CommandEntry>& CommandCatalog() {
  static const std::vector<CommandEntry> catalog = {
      Entry(RecordCommand(), {}),
      Entry(PlayCommand(), {}),
      Entry(SummaryCommand(), {"summarize"}),
  };
  return catalog;
}

}  // namespace pm

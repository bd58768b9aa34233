// Every subcommand's options as data, for whatever walks them: a shell
// completion generator, a check that each man page documents each option,
// the tests. Derived from the same tables the parsers use.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tools/option_table.hh"

namespace pm {

struct CommandEntry {
  std::string_view name;                  // "record"
  std::vector<std::string_view> aliases;  // "summarize"
  std::vector<const OptionInfo*> options; // in table order, hidden ones included
  std::string usage;                      // its --help text
};

const std::vector<CommandEntry>& CommandCatalog();

}  // namespace pm

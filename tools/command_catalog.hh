// Every subcommand's options as data, for whatever walks them: the shell
// completion generator, the tests that check each --help and man page
// against them. Derived from the same tables the parsers use.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "tools/option_table.hh"

namespace pm {

struct CommandEntry {
  std::string_view name;                  // "record"
  std::vector<std::string_view> aliases;  // "summarize"
  std::string_view summary;               // its line in `perfmonger --help`
  std::vector<const OptionInfo*> options; // in table order, hidden ones included
  std::string usage;                      // its --help text
  // Parses argv (argv[0] the command's name) as the command does; throws
  // UsageError. For tests: nothing is run.
  std::function<void(int argc, char** argv)> parse;
};

// In `perfmonger --help` order.
const std::vector<CommandEntry>& CommandCatalog();

}  // namespace pm

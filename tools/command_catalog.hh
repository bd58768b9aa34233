// Every subcommand's options as data, for whatever walks them: `perfmonger
// --help`'s command list, the shell completion scripts, the tests that
// check each --help and man page against them. Derived from the same
// tables the parsers use.
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
  // What its operands are, for completion: the choices when given.
  Completes operand = Completes::kNothing;
  std::string_view operand_choices = {};  // space-separated
};

// In `perfmonger --help` order.
const std::vector<CommandEntry>& CommandCatalog();

// perfmonger's own options, before any command: -h/--help, -v/--version.
const std::vector<OptionInfo>& ToplevelOptions();

// `perfmonger --help`: usage line, the commands with their summaries.
std::string ToplevelUsage();

}  // namespace pm

// Shell completion scripts generated from the command catalog
// (tools/command_catalog.hh): every subcommand and alias, every listed
// option, the values of options with fixed choices, files where a value or
// operand is a path. Nothing is spelled twice, so completion cannot drift
// from the parsers or --help.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace pm {

enum class Shell { kBash, kZsh, kFish };

// "bash", "zsh", "fish" (a path or a login shell's "-bash" too); nullopt
// for another.
std::optional<Shell> ShellNamed(std::string_view name);

std::string CompletionScript(Shell shell);

}  // namespace pm

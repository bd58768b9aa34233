// `perfmonger completion bash|zsh|fish` and `perfmonger init-shell
// [bash|zsh|fish|-]` (PerfMonger 1.0 has both): print the shell completion
// script generated from the option tables (tools/completion/completion_script.hh).
// init-shell detects the shell when none (or '-') is named.
#pragma once

#include <optional>
#include <string>

#include "tools/completion/completion_values.hh"
#include "tools/option_table.hh"

namespace pm {

struct ShellArgs {
  bool help = false;
  std::string shell;  // "": not named (init-shell detects it)
  std::optional<ValueList> values;  // completion --values KIND: list those instead
};

// The option tables: -h; the shell is the operand.
const Command<ShellArgs>& InitShellCommand();
const Command<ShellArgs>& CompletionCommand();

// Throw UsageError naming the fix (exit 1).
ShellArgs ParseInitShellArgs(int argc, char** argv);
ShellArgs ParseCompletionArgs(int argc, char** argv);

// 0 printed; 1 usage error or a shell that cannot be told or is not known.
int InitShellMain(int argc, char** argv);
int CompletionMain(int argc, char** argv);

}  // namespace pm

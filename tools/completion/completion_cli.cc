#include "tools/completion/completion_cli.hh"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "common/error.hh"
#include "tools/completion/completion_script.hh"

namespace pm {
namespace {

constexpr char kInitShellAbout[] =
    R"X(Print the completion script for SHELL (bash, zsh or fish), to be evaluated
at shell start-up: eval "$(perfmonger init-shell)" in ~/.bashrc or ~/.zshrc,
perfmonger init-shell fish | source in config.fish. Without SHELL, or with
'-', the shell is the parent process's when it is one of these, else
$SHELL's.
)X";

constexpr char kCompletionAbout[] =
    R"(Print the completion script for SHELL (bash, zsh or fish): every
subcommand and option, generated from the same option tables as the parsers
and --help. source <(perfmonger completion bash) loads it.
)";

constexpr char kCompletionFooter[] =
    R"(The scripts run perfmonger completion --values for the devices, cgroups
and processes they offer: one a line, a TAB before its description.
)";

Option<ShellArgs> HelpOption() {
  return MakeOption<ShellArgs>({.name = "help", .short_name = 'h', .help = "show this help"},
                               [](ShellArgs& a, const Given& g) { a.help = g.on; });
}

ShellArgs ParseShellArgs(const Command<ShellArgs>& command, int argc, char** argv) {
  ShellArgs a;
  std::vector<std::string> operands = command.Parse(argc, argv, a);
  std::string see = " (see perfmonger " + std::string(command.text.name) + " --help)";
  if (a.help) return a;
  if (operands.size() > 1) throw UsageError("one SHELL at a time: unexpected '" + operands[1] + "'" + see);
  if (!operands.empty() && operands[0] != "-") {
    if (!ShellNamed(operands[0]) || operands[0].find('/') != std::string::npos)
      throw UsageError("'" + operands[0] + "': give bash, zsh or fish" + see);
    a.shell = operands[0];
  }
  return a;
}

// The parent's command name (/proc/PPID/comm): `eval "$(perfmonger
// init-shell)"` runs us from the shell itself.
std::string ParentCommand() {
  std::ifstream comm("/proc/" + std::to_string(getppid()) + "/comm");
  std::string name;
  std::getline(comm, name);
  return name;
}

std::optional<Shell> DetectShell() {
  if (std::optional<Shell> parent = ShellNamed(ParentCommand())) return parent;
  const char* shell = std::getenv("SHELL");
  return shell ? ShellNamed(shell) : std::nullopt;
}

int Print(const char* command, const ShellArgs& args, const Command<ShellArgs>& table) {
  if (args.help || args.values) {
    std::fputs((args.help ? table.Usage() : ListValues(*args.values)).c_str(), stdout);
    return std::fflush(stdout) == 0 ? 0 : 1;
  }
  std::optional<Shell> shell = args.shell.empty() ? DetectShell() : ShellNamed(args.shell);
  if (!shell) {
    std::fprintf(stderr,
                 "perfmonger %s: error: cannot tell the shell (neither the parent process "
                 "nor $SHELL is bash, zsh or fish): name it, as in perfmonger %s bash\n",
                 command, command);
    return 1;
  }
  std::fputs(CompletionScript(*shell).c_str(), stdout);
  return std::fflush(stdout) == 0 ? 0 : 1;
}

template <class Parse>
int Main(const char* command, const Command<ShellArgs>& table, Parse parse, int argc,
         char** argv) {
  try {
    return Print(command, parse(argc, argv), table);
  } catch (const UsageError& e) {
    std::fprintf(stderr, "perfmonger %s: error: %s\n", command, e.what());
    return 1;
  }
}

}  // namespace

const Command<ShellArgs>& InitShellCommand() {
  static const Command<ShellArgs> command{
      {"init-shell", "[bash|zsh|fish|-]", kInitShellAbout, ""}, {HelpOption()}};
  return command;
}

Option<ShellArgs> ValuesOption() {
  return MakeOption<ShellArgs>(
      {.name = "values", .value = "KIND",
       .help = "print what completion offers for KIND: devices,\ncgroups or pids",
       .brief = "print what completion offers for KIND",
       .choices = "devices cgroups pids"},
      [](ShellArgs& a, const Given& g) {
        a.values = ValueListNamed(g.value);
        if (!a.values)
          throw UsageError("--values '" + std::string(g.value) +
                           "': give devices, cgroups or pids (see perfmonger completion --help)");
      });
}

const Command<ShellArgs>& CompletionCommand() {
  static const Command<ShellArgs> command{
      {"completion", "bash|zsh|fish | --values KIND", kCompletionAbout, kCompletionFooter},
      {ValuesOption(), HelpOption()}};
  return command;
}

ShellArgs ParseInitShellArgs(int argc, char** argv) {
  return ParseShellArgs(InitShellCommand(), argc, argv);
}

ShellArgs ParseCompletionArgs(int argc, char** argv) {
  ShellArgs a = ParseShellArgs(CompletionCommand(), argc, argv);
  if (a.values && !a.shell.empty())
    throw UsageError("--values lists values, not a script: leave out '" + a.shell + "'");
  if (!a.help && !a.values && a.shell.empty())
    throw UsageError("name the shell: perfmonger completion bash|zsh|fish "
                     "(init-shell detects it)");
  return a;
}

int InitShellMain(int argc, char** argv) {
  return Main("init-shell", InitShellCommand(), ParseInitShellArgs, argc, argv);
}

int CompletionMain(int argc, char** argv) {
  return Main("completion", CompletionCommand(), ParseCompletionArgs, argc, argv);
}

}  // namespace pm

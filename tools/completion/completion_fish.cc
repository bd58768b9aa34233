// fish: one `complete` line per option, described by its one-line brief;
// stat's CMD is completed by CMD's own completion
// (__fish_complete_subcommand), and stat's options stop where CMD starts.
#include <string>

#include "tools/completion/completion_shells.hh"

namespace pm::completion {
namespace {

constexpr char kHead[] =
    R"SH(# fish completion for perfmonger, generated from its option tables by
# 'perfmonger completion fish'. Installed as
# vendor_completions.d/perfmonger.fish, or loaded with
#   perfmonger completion fish | source
complete -c perfmonger -f

# What perfmonger lists for $argv[1] (devices, cgroups, pids), described.
function __perfmonger_values
    set -l perfmonger (commandline -opc)[1]
    $perfmonger completion --values $argv[1] 2>/dev/null
end

# Recordings (*.pgr, *.pgr.gz, *.pgr.zst) and directories; any file when
# there is none.
function __perfmonger_recordings
    set -l files (complete -C"__fish_command_without_completions "(commandline -ct))
    string match -r -- '.*(\.pgr|\.pgr\.gz|\.pgr\.zst|/)$' $files
    or printf '%s\n' $files
end

# stat's CMD and its arguments, the word being completed last, once CMD
# has started: after --, or at the first word that is neither an option
# nor the value of one of those in $argv. False before.
function __perfmonger_command
    set -l words (commandline -opc) (commandline -ct)
    set -e words[1..2]
    set -l i 1
    while set -q words[$i]
        if test "$words[$i]" = --
            set i (math $i + 1)
            break
        else if contains -- $words[$i] $argv
            set i (math $i + 1)
        else if not string match -q -- '-*' $words[$i]
            break
        end
        set i (math $i + 1)
    end
    set -q words[$i]; or return 1
    printf '%s\n' $words[$i..-1]
end
)SH";

std::string FishQuoted(std::string_view text) {
  std::string out(1, '\'');
  out += Replaced(Replaced(std::string(text), "\\", "\\\\"), "'", "\\'");
  return out += '\'';
}

std::string Arguments(Completes kind) {
  switch (kind) {
    case Completes::kFile: return " -r -F";
    case Completes::kDirectory: return " -x -a '(__fish_complete_directories)'";
    case Completes::kRecording: return " -x -a '(__perfmonger_recordings)'";
    case Completes::kDevice:
      return " -x -a '(__fish_complete_list , \"__perfmonger_values devices\")'";
    case Completes::kCgroup: return " -x -a '(__perfmonger_values cgroups)'";
    case Completes::kPid: return " -x -a '(__perfmonger_values pids)'";
    case Completes::kCommand: return " -x -a '(__fish_complete_command)'";
    case Completes::kNothing: break;
  }
  return " -x";
}

std::string Value(const OptionInfo& o) {
  if (o.is_flag()) return "";
  if (!o.choices.empty()) return " -x -a " + FishQuoted(o.choices);
  return Arguments(o.completes);
}

std::string Operand(const CommandEntry& c, const std::string& head) {
  if (!c.operand_choices.empty()) return head + " -x -a " + FishQuoted(c.operand_choices) + "\n";
  if (c.operand == Completes::kNothing) return "";
  return head + Arguments(c.operand) + "\n";
}

// stat: its options until CMD starts, then CMD's own completion.
std::string CommandLines(const CommandEntry& c, std::string_view seen, std::string& options_head) {
  std::string started = "__perfmonger_command " + ValueOptionWords(c);
  options_head = "complete -c perfmonger -n " + FishQuoted(std::string(seen) + "; and not " + started);
  return "complete -c perfmonger -n " + FishQuoted(std::string(seen) + "; and " + started) +
         " -x -a " + FishQuoted("(__fish_complete_subcommand --commandline (" + started + "))") +
         "\n";
}

std::string Lines(const CommandEntry& c) {
  std::string seen = "__fish_seen_subcommand_from " + Names(c, " ");
  std::string head = "complete -c perfmonger -n " + FishQuoted(seen);
  std::string out = "complete -c perfmonger -n __fish_use_subcommand -a " +
                    FishQuoted(Names(c, " ")) + " -d " + FishQuoted(c.summary) + "\n";
  std::string command = c.operand == Completes::kCommand ? CommandLines(c, seen, head) : "";
  for (const OptionInfo* o : Listed(c)) {
    out += head;
    if (o->short_name) out += " -s " + std::string(1, o->short_name);
    out += " -l " + std::string(o->name) + Value(*o) + " -d " + FishQuoted(o->OneLine()) + "\n";
  }
  return out + (command.empty() ? Operand(c, head) : command);
}

}  // namespace

std::string FishScript() {
  std::string out = kHead;
  for (const OptionInfo& o : ToplevelOptions())
    out += "complete -c perfmonger -n __fish_use_subcommand -s " + std::string(1, o.short_name) +
           " -l " + std::string(o.name) + " -d " + FishQuoted(o.OneLine()) + "\n";
  for (const CommandEntry& c : CommandCatalog()) out += Lines(c);
  return out;
}

}  // namespace pm::completion

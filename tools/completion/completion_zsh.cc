// zsh: _arguments per command. One file serves both ways of loading it:
// autoloaded from fpath (site-functions/_perfmonger, by compinit's
// #compdef line) or evaluated (init-shell), which starts compinit first
// when the shell runs without it (zsh -f).
#include <string>

#include "tools/completion/completion_shells.hh"

namespace pm::completion {
namespace {

constexpr char kHead[] =
    R"SH(#compdef perfmonger
# zsh completion for perfmonger, generated from its option tables by
# 'perfmonger completion zsh'. Installed as site-functions/_perfmonger, or
# loaded with
#   source <(perfmonger completion zsh)
# or, in ~/.zshrc: eval "$(perfmonger init-shell zsh)"

# What perfmonger lists for the last argument (devices, cgroups, pids),
# described; the arguments before it are compadd's (from _arguments and
# _sequence).
_perfmonger_values() {
  local kind=${argv[-1]} line value
  argv[-1]=()
  local -a values
  for line in ${(f)"$(_call_program $kind $perfmonger completion --values $kind 2>/dev/null)"}; do
    value=${${line%%$'\t'*}//:/\\:}  # _describe splits at the first unquoted ':'
    [[ $line == *$'\t'* ]] && value+=:${line#*$'\t'}
    values+=("$value")
  done
  _describe -t $kind ${kind%s} values "$@"
}

# stat's CMD ARGS: CMD's own completion (_arguments leaves a -- before
# CMD in words).
_perfmonger_command() {
  if [[ $words[1] == -- ]]; then
    shift words
    ((CURRENT--))
  fi
  _normal
}

_perfmonger() {
  local perfmonger=${words[1]}
  local -a subcommands
  subcommands=(
)SH";

constexpr char kTail[] =
    R"SH(  esac
}

if [[ $funcstack[1] == _perfmonger ]]; then
  _perfmonger "$@"  # autoloaded by compinit: this is the first completion
else
  (( $+functions[compdef] )) || { autoload -Uz compinit && compinit -i }
  compdef _perfmonger perfmonger
fi
)SH";

// A description inside _arguments' [...] within '...'.
std::string Description(const OptionInfo& o) {
  std::string d = Replaced(Replaced(o.OneLine(), "[", "\\["), "]", "\\]");
  return Replaced(d, "'", "'\\''");
}

// An action (within '...').
std::string Action(Completes kind) {
  switch (kind) {
    case Completes::kFile: return "_files";
    case Completes::kDirectory: return "_files -/";
    case Completes::kRecording: return "_files -g \"*.(pgr|pgr.gz|pgr.zst)(-.)\"";
    case Completes::kDevice: return "_sequence _perfmonger_values - devices";
    case Completes::kCgroup: return "_perfmonger_values cgroups";
    case Completes::kPid: return "_perfmonger_values pids";
    case Completes::kCommand: return "_command_names -e";
    case Completes::kNothing: break;
  }
  return " ";
}

std::string ValueSpec(const OptionInfo& o) {
  std::string message(1, ':');
  message.append(Replaced(std::string(o.value), ":", "")).push_back(':');
  if (!o.choices.empty()) return message + "(" + std::string(o.choices) + ")";
  return message + Action(o.completes);
}

// '-l+[...]:PATH:_files' and '--logfile=[...]:PATH:_files'.
std::string Specs(const OptionInfo& o) {
  std::string rest(1, '[');
  rest.append(Description(o)).append("]").append(o.is_flag() ? "" : ValueSpec(o)).append("' \\\n");
  std::string out;
  if (o.short_name)
    out.append("      '-").append(1, o.short_name).append(o.is_flag() ? "" : "+").append(rest);
  return out.append("      '--").append(o.name).append(o.is_flag() ? "" : "=").append(rest);
}

std::string Operand(const CommandEntry& c) {
  if (!c.operand_choices.empty()) return "      '1:shell:(" + std::string(c.operand_choices) + ")'";
  switch (c.operand) {
    case Completes::kNothing: return "      ";
    case Completes::kCommand: return "      '*:: :_perfmonger_command'";
    case Completes::kRecording: return "      '1:recording:" + Action(c.operand) + "'";
    default: return "      '1:file:" + Action(c.operand) + "'";
  }
}

std::string Case(const CommandEntry& c) {
  // stat: what follows CMD is CMD's, options included (-A).
  std::string out = "    (" + Names(c, "|") + ")\n      _arguments -s -S" +
                    (c.operand == Completes::kCommand ? " -A '-*'" : "") + " \\\n";
  for (const OptionInfo* o : Listed(c)) out += Specs(*o);
  return out + Operand(c) + "\n      ;;\n";
}

}  // namespace

std::string ZshScript() {
  std::string out = kHead;
  for (const CommandEntry& c : CommandCatalog()) {
    out += "    " + Quoted(std::string(c.name) + ":" + std::string(c.summary)) + "\n";
    for (std::string_view alias : c.aliases)
      out += "    " + Quoted(std::string(alias) + ":" + std::string(c.summary)) + "\n";
  }
  out += "  )\n  local -a toplevel\n  toplevel=(\n";
  for (const OptionInfo& o : ToplevelOptions()) {
    std::string words = Words(o);  // "-h --help"
    for (std::string_view word : {words.substr(0, 2), words.substr(3)})
      out.append("    ").append(Quoted(std::string(word) + ":" + o.OneLine())).append("\n");
  }
  out += "  )\n  if ((CURRENT == 2)); then\n"
         "    if [[ $PREFIX == -* ]]; then\n"
         "      _describe -t options 'perfmonger option' toplevel\n"
         "    else\n"
         "      _describe -t commands 'perfmonger command' subcommands\n"
         "    fi\n    return\n  fi\n"
         "  local cmd=${words[2]}\n  shift words\n  ((CURRENT--))\n  case $cmd in\n";
  for (const CommandEntry& c : CommandCatalog()) out += Case(c);
  return out + kTail;
}

}  // namespace pm::completion

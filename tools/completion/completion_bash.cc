// bash: one function per command, dispatched on the second word; with
// bash-completion loaded, stat's CMD is completed by CMD's own completion
// (_command_offset), without it as a command name and then as files.
#include <string>

#include "tools/completion/completion_shells.hh"

namespace pm::completion {
namespace {

constexpr char kHead[] =
    R"SH(# bash completion for perfmonger, generated from its option tables by
# 'perfmonger completion bash'. Installed as bash-completion's
# completions/perfmonger.bash, or loaded with
#   source <(perfmonger completion bash)
# or, in ~/.bashrc: eval "$(perfmonger init-shell bash)"

# The words of $1 that start with $cur.
_perfmonger_reply() {
  mapfile -t COMPREPLY < <(compgen -W "$1" -- "$cur")
}

# Files (-f) or directories (-d).
_perfmonger_files() {
  compopt -o filenames 2>/dev/null
  mapfile -t COMPREPLY < <(compgen "$1" -- "$cur")
}

# Recordings (*.pgr, *.pgr.gz, *.pgr.zst) and directories; any file when
# there is none.
_perfmonger_recordings() {
  local f
  compopt -o filenames 2>/dev/null
  while IFS= read -r f; do
    [[ -d $f || $f == *.pgr || $f == *.pgr.gz || $f == *.pgr.zst ]] && COMPREPLY+=("$f")
  done < <(compgen -f -- "$cur")
  ((${#COMPREPLY[@]})) || _perfmonger_files -f
}

# What perfmonger lists for $1 (devices, cgroups, pids); devices after a
# comma too (-d vda,vdb).
_perfmonger_listed() {
  local value _ prefix=
  [[ $1 == devices && $cur == *,* ]] && prefix=${cur%,*},
  while IFS=$'\t' read -r value _; do
    [[ $prefix$value == "$cur"* ]] && COMPREPLY+=("$prefix$value")
  done < <("${COMP_WORDS[0]/#\~/$HOME}" completion --values "$1" 2>/dev/null)
}

# stat's CMD ARGS, once CMD has started (after --, or the first word that
# is neither an option nor the value of one of $1): CMD's own completion.
_perfmonger_command() {
  local i
  for ((i = 2; i < COMP_CWORD; i++)); do
    case ${COMP_WORDS[i]} in
      --) ((i++)); break ;;
      =) ((i++)) ;;
      -*) [[ " $1 " == *" ${COMP_WORDS[i]} "* && ${COMP_WORDS[i+1]} != = ]] && ((i++)) ;;
      *) break ;;
    esac
  done
  ((i < COMP_CWORD)) || [[ ${COMP_WORDS[i-1]} == -- ]] || return 1
  if declare -F _command_offset >/dev/null; then
    _command_offset "$i"
  elif ((i == COMP_CWORD)); then
    mapfile -t COMPREPLY < <(compgen -c -- "$cur")
  else
    compopt -o default 2>/dev/null
  fi
}
)SH";

constexpr char kMain[] =
    R"SH(_perfmonger() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} eq=
  COMPREPLY=()
  # bash splits --opt=VALUE at '=': VALUE completes as after --opt VALUE.
  if [[ $cur == = && $prev == -* ]]; then
    cur= eq=1
  elif [[ $prev == = && ${COMP_WORDS[COMP_CWORD-2]} == -* ]]; then
    prev=${COMP_WORDS[COMP_CWORD-2]} eq=1
  fi
)SH";

// What completes a value or an operand that is `kind`.
std::string Reply(Completes kind) {
  switch (kind) {
    case Completes::kFile: return "_perfmonger_files -f";
    case Completes::kDirectory: return "_perfmonger_files -d";
    case Completes::kRecording: return "_perfmonger_recordings";
    case Completes::kDevice: return "_perfmonger_listed devices";
    case Completes::kCgroup: return "_perfmonger_listed cgroups";
    case Completes::kPid: return "_perfmonger_listed pids";
    case Completes::kCommand: return "mapfile -t COMPREPLY < <(compgen -c -- \"$cur\")";
    case Completes::kNothing: break;
  }
  return ":";
}

std::string ValueCase(const OptionInfo& o) {
  std::string reply = o.choices.empty() ? Reply(o.completes)
                                        : "_perfmonger_reply " + Quoted(o.choices);
  return "    " + Words(o, "|") + ") " + reply + "; return ;;\n";
}

std::string Operand(const CommandEntry& c) {
  if (!c.operand_choices.empty()) return "  _perfmonger_reply " + Quoted(c.operand_choices) + "\n";
  if (c.operand == Completes::kNothing) return "";
  return "  " + Reply(c.operand) + "\n";
}

std::string FunctionName(std::string_view command) {
  return "_perfmonger_" + Replaced(std::string(command), "-", "_");
}

std::string Function(const CommandEntry& c) {
  std::string out = FunctionName(c.name) + "() {\n";
  if (c.operand == Completes::kCommand)
    out += "  _perfmonger_command " + Quoted(ValueOptionWords(c)) + " && return\n";
  out += "  case $prev in\n";
  std::string words;
  for (const OptionInfo* o : Listed(c)) {
    if (!o->is_flag()) out += ValueCase(*o);
    words.append(words.empty() ? "" : " ").append(Words(*o));
  }
  out += "  esac\n"
         "  if [[ $eq ]]; then _perfmonger_reply 'true false'; return; fi  # --FLAG=\n"
         "  if [[ $cur == -* ]]; then _perfmonger_reply " + Quoted(words) + "; return; fi\n";
  return out + Operand(c) + "}\n";
}

}  // namespace

std::string BashScript() {
  std::string out = kHead;
  for (const CommandEntry& c : CommandCatalog()) out += Function(c);
  out += kMain;
  out += "  if ((COMP_CWORD == 1)); then _perfmonger_reply " + Quoted(AllCommandNames()) +
         "; return 0; fi\n  case ${COMP_WORDS[1]} in\n";
  for (const CommandEntry& c : CommandCatalog())
    out += "    " + Names(c, "|") + ") " + FunctionName(c.name) + " ;;\n";
  return out + "  esac\n  return 0\n}\ncomplete -F _perfmonger perfmonger\n";
}

}  // namespace pm::completion

#include "tools/completion_script.hh"

#include <string>
#include <vector>

#include "tools/command_catalog.hh"

namespace pm {
namespace {

// How an option's value is completed.
enum class ValueKind { kNone, kChoice, kFile, kDirectory, kOther };

ValueKind ValueOf(const OptionInfo& o) {
  if (o.is_flag()) return ValueKind::kNone;
  if (!o.choices.empty()) return ValueKind::kChoice;
  if (o.value == "DIR") return ValueKind::kDirectory;
  if (o.value == "PATH" || o.value == "FILE") return ValueKind::kFile;
  return ValueKind::kOther;
}

std::vector<const OptionInfo*> Listed(const CommandEntry& c) {
  std::vector<const OptionInfo*> out;
  for (const OptionInfo* o : c.options)
    if (!o->hidden) out.push_back(o);
  return out;
}

// "-l --logfile": every word that names `o`.
std::string Words(const OptionInfo& o, std::string_view separator = " ") {
  std::string out;
  if (o.short_name) out.append("-").append(1, o.short_name).append(separator);
  return out.append("--").append(o.name);
}

std::string FirstLine(std::string_view help) { return std::string(help.substr(0, help.find('\n'))); }

std::string Replaced(std::string text, std::string_view from, std::string_view to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

// Inside '...' for sh-like shells.
// (Appended rather than "'" + ...: GCC 12 warns -Wrestrict on the latter.)
std::string Quoted(std::string_view text) {
  std::string out(1, '\'');
  out += Replaced(std::string(text), "'", "'\\''");
  return out += '\'';
}

std::string FunctionName(std::string_view command) {
  return "_perfmonger_" + Replaced(std::string(command), "-", "_");
}

// `record|rec` for a case pattern: the name and its aliases.
std::string Names(const CommandEntry& c, std::string_view separator) {
  std::string out(c.name);
  for (std::string_view alias : c.aliases) out.append(separator).append(alias);
  return out;
}

std::string AllCommandNames() {
  std::string out;
  for (const CommandEntry& c : CommandCatalog()) out.append(Names(c, " ")).append(" ");
  return out + "--help --version";
}

// ---- bash: one function per command, dispatched on the second word.

constexpr char kBashReply[] = "mapfile -t COMPREPLY < <(compgen ";

std::string BashValueCase(const OptionInfo& o) {
  std::string pattern = Words(o, "|");
  switch (ValueOf(o)) {
    case ValueKind::kChoice:
      return "    " + pattern + ") " + kBashReply + "-W " + Quoted(o.choices) +
             " -- \"$cur\"); return ;;\n";
    case ValueKind::kFile:
      return "    " + pattern + ") compopt -o filenames 2>/dev/null; " + kBashReply +
             "-f -- \"$cur\"); return ;;\n";
    case ValueKind::kDirectory:
      return "    " + pattern + ") compopt -o filenames 2>/dev/null; " + kBashReply +
             "-d -- \"$cur\"); return ;;\n";
    case ValueKind::kOther: return "    " + pattern + ") return ;;\n";
    case ValueKind::kNone: break;
  }
  return "";
}

std::string BashOperand(const CommandEntry& c) {
  switch (c.operand) {
    case OperandKind::kFile:
      return std::string("  compopt -o filenames 2>/dev/null; ") + kBashReply + "-f -- \"$cur\")\n";
    case OperandKind::kCommand: return std::string("  ") + kBashReply + "-c -- \"$cur\")\n";
    case OperandKind::kChoice:
      return std::string("  ") + kBashReply + "-W " + Quoted(c.operand_choices) + " -- \"$cur\")\n";
    case OperandKind::kNone: break;
  }
  return "";
}

std::string BashFunction(const CommandEntry& c) {
  std::string out = FunctionName(c.name) + "() {\n  case $prev in\n";
  std::string words;
  for (const OptionInfo* o : Listed(c)) {
    out += BashValueCase(*o);
    words.append(words.empty() ? "" : " ").append(Words(*o));
  }
  out += "  esac\n  if [[ $cur == -* ]]; then\n    ";
  out += std::string(kBashReply) + "-W " + Quoted(words) + " -- \"$cur\")\n    return\n  fi\n";
  return out + BashOperand(c) + "}\n";
}

std::string BashScript() {
  std::string out =
      "# bash completion for perfmonger, generated from its option tables by\n"
      "# 'perfmonger completion bash'. Load it with\n"
      "#   source <(perfmonger completion bash)\n"
      "# or, in ~/.bashrc: eval \"$(perfmonger init-shell bash)\"\n";
  for (const CommandEntry& c : CommandCatalog()) out += BashFunction(c);
  out += "_perfmonger() {\n"
         "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
         "  COMPREPLY=()\n"
         "  if ((COMP_CWORD == 1)); then\n    ";
  out += std::string(kBashReply) + "-W " + Quoted(AllCommandNames()) + " -- \"$cur\")\n";
  out += "    return 0\n  fi\n  case ${COMP_WORDS[1]} in\n";
  for (const CommandEntry& c : CommandCatalog())
    out += "    " + Names(c, "|") + ") " + FunctionName(c.name) + " ;;\n";
  return out + "  esac\n  return 0\n}\ncomplete -F _perfmonger perfmonger\n";
}


// ---- zsh: _arguments per command.

// A description inside _arguments' [...] within '...'.
std::string ZshDescription(std::string_view help) {
  std::string d = Replaced(Replaced(FirstLine(help), "[", "\\["), "]", "\\]");
  return Replaced(d, "'", "'\\''");
}

std::string ZshAction(const OptionInfo& o) {
  std::string message(1, ':');
  message.append(Replaced(std::string(o.value), ":", "")).push_back(':');
  switch (ValueOf(o)) {
    case ValueKind::kChoice: return message + "(" + std::string(o.choices) + ")";
    case ValueKind::kFile: return message + "_files";
    case ValueKind::kDirectory: return message + "_files -/";
    case ValueKind::kOther: return message + " ";
    case ValueKind::kNone: break;
  }
  return "";
}

std::string ZshSpecs(const OptionInfo& o) {
  std::string description(1, '[');
  description.append(ZshDescription(o.help)).push_back(']');
  std::string action = ZshAction(o);
  std::string out;
  if (o.short_name)
    out += "      '-" + std::string(1, o.short_name) + (o.is_flag() ? "" : "+") + description +
           action + "' \\\n";
  return out + "      '--" + std::string(o.name) + (o.is_flag() ? "" : "=") + description +
         action + "' \\\n";
}

std::string ZshOperand(const CommandEntry& c) {
  switch (c.operand) {
    case OperandKind::kFile: return "      '1:file:_files'";
    case OperandKind::kCommand: return "      '*:: :_normal'";
    case OperandKind::kChoice: return "      '1:shell:(" + std::string(c.operand_choices) + ")'";
    case OperandKind::kNone: break;
  }
  return "      ";
}

std::string ZshScript() {
  std::string out =
      "#compdef perfmonger\n"
      "# zsh completion for perfmonger, generated from its option tables by\n"
      "# 'perfmonger completion zsh'. Load it after compinit with\n"
      "#   source <(perfmonger completion zsh)\n"
      "# or, in ~/.zshrc: eval \"$(perfmonger init-shell zsh)\"\n"
      "_perfmonger() {\n  local -a commands\n  commands=(\n";
  for (const CommandEntry& c : CommandCatalog()) {
    out += "    " + Quoted(std::string(c.name) + ":" + std::string(c.summary)) + "\n";
    for (std::string_view alias : c.aliases)
      out += "    " + Quoted(std::string(alias) + ":" + std::string(c.summary)) + "\n";
  }
  out += "  )\n  if ((CURRENT == 2)); then\n"
         "    _describe -t commands 'perfmonger command' commands\n    return\n  fi\n"
         "  local cmd=${words[2]}\n  shift words\n  ((CURRENT--))\n  case $cmd in\n";
  for (const CommandEntry& c : CommandCatalog()) {
    out += "    (" + Names(c, "|") + ")\n      _arguments -s -S \\\n";
    for (const OptionInfo* o : Listed(c)) out += ZshSpecs(*o);
    out += ZshOperand(c) + "\n      ;;\n";
  }
  return out + "  esac\n}\ncompdef _perfmonger perfmonger\n";
}

// ---- fish: one `complete` line per option.

std::string FishQuoted(std::string_view text) {
  std::string out(1, '\'');
  out += Replaced(Replaced(std::string(text), "\\", "\\\\"), "'", "\\'");
  return out += '\'';
}

std::string FishValue(const OptionInfo& o) {
  switch (ValueOf(o)) {
    case ValueKind::kChoice: return " -x -a " + FishQuoted(o.choices);
    case ValueKind::kFile: return " -r -F";
    case ValueKind::kDirectory: return " -x -a '(__fish_complete_directories)'";
    case ValueKind::kOther: return " -x";
    case ValueKind::kNone: break;
  }
  return "";
}

std::string FishOperand(const CommandEntry& c, const std::string& head) {
  switch (c.operand) {
    case OperandKind::kFile: return head + " -F\n";
    case OperandKind::kCommand: return head + " -x -a '(__fish_complete_command)'\n";
    case OperandKind::kChoice: return head + " -x -a " + FishQuoted(c.operand_choices) + "\n";
    case OperandKind::kNone: break;
  }
  return "";
}

std::string FishScript() {
  std::string out =
      "# fish completion for perfmonger, generated from its option tables by\n"
      "# 'perfmonger completion fish'. Load it with\n"
      "#   perfmonger completion fish | source\n"
      "# or save it as ~/.config/fish/completions/perfmonger.fish\n"
      "complete -c perfmonger -f\n";
  for (const CommandEntry& c : CommandCatalog()) {
    out += "complete -c perfmonger -n __fish_use_subcommand -a " + FishQuoted(Names(c, " ")) +
           " -d " + FishQuoted(c.summary) + "\n";
    std::string head =
        "complete -c perfmonger -n " + FishQuoted("__fish_seen_subcommand_from " + Names(c, " "));
    for (const OptionInfo* o : Listed(c)) {
      out += head;
      if (o->short_name) out += " -s " + std::string(1, o->short_name);
      out += " -l " + std::string(o->name) + FishValue(*o) + " -d " +
             FishQuoted(FirstLine(o->help)) + "\n";
    }
    out += FishOperand(c, head);
  }
  return out;
}

}  // namespace

std::optional<Shell> ShellNamed(std::string_view name) {
  size_t slash = name.rfind('/');
  if (slash != std::string_view::npos) name.remove_prefix(slash + 1);
  if (name.starts_with("-")) name.remove_prefix(1);  // a login shell's argv[0]
  if (name == "bash") return Shell::kBash;
  if (name == "zsh") return Shell::kZsh;
  if (name == "fish") return Shell::kFish;
  return std::nullopt;
}

std::string CompletionScript(Shell shell) {
  switch (shell) {
    case Shell::kZsh: return ZshScript();
    case Shell::kFish: return FishScript();
    case Shell::kBash: break;
  }
  return BashScript();
}

}  // namespace pm

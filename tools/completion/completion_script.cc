#include "tools/completion/completion_script.hh"

#include "tools/completion/completion_shells.hh"

namespace pm {
namespace completion {

std::vector<const OptionInfo*> Listed(const CommandEntry& c) {
  std::vector<const OptionInfo*> out;
  for (const OptionInfo* o : c.options)
    if (!o->hidden) out.push_back(o);
  return out;
}

std::string Words(const OptionInfo& o, std::string_view separator) {
  std::string out;
  if (o.short_name) out.append("-").append(1, o.short_name).append(separator);
  return out.append("--").append(o.name);
}

std::string ValueOptionWords(const CommandEntry& c) {
  std::string out;
  for (const OptionInfo* o : Listed(c))
    if (!o->is_flag()) out.append(out.empty() ? "" : " ").append(Words(*o));
  return out;
}

std::string Names(const CommandEntry& c, std::string_view separator) {
  std::string out(c.name);
  for (std::string_view alias : c.aliases) out.append(separator).append(alias);
  return out;
}

std::string AllCommandNames() {
  std::string out;
  for (const CommandEntry& c : CommandCatalog()) out.append(Names(c, " ")).append(" ");
  for (const OptionInfo& o : ToplevelOptions()) out.append(Words(o)).append(" ");
  out.pop_back();
  return out;
}

std::string Replaced(std::string text, std::string_view from, std::string_view to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

// (Appended rather than "'" + ...: GCC 12 warns -Wrestrict on the latter.)
std::string Quoted(std::string_view text) {
  std::string out(1, '\'');
  out += Replaced(std::string(text), "'", "'\\''");
  return out += '\'';
}

}  // namespace completion

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
    case Shell::kZsh: return completion::ZshScript();
    case Shell::kFish: return completion::FishScript();
    case Shell::kBash: break;
  }
  return completion::BashScript();
}

}  // namespace pm

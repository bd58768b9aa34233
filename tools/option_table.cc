#include "tools/option_table.hh"

#include <getopt.h>

#include <algorithm>

#include "common/error.hh"

namespace pm {
namespace {

constexpr size_t kHelpColumn = 25;
constexpr int kLongOnlyBase = 256;  // getopt_long's val for option i: base + i

std::string Spec(const OptionInfo& o) {
  std::string spec = "  ";
  spec += o.short_name ? std::string("-") + o.short_name + ", " : std::string("    ");
  spec += "--";
  spec += o.name;
  if (!o.is_flag()) spec.append(" ").append(o.value);
  else if (!o.choices.empty()) spec.append("[=WHEN]");
  return spec;
}

void AppendOption(std::string& out, const OptionInfo& o) {
  std::string spec = Spec(o);
  out += spec;
  // A spec too long for the column gets its help on the lines below.
  if (spec.size() + 1 >= kHelpColumn) out.append("\n").append(kHelpColumn, ' ');
  else out.append(kHelpColumn - spec.size(), ' ');
  std::string_view help = o.help;
  for (size_t line = 0; !help.empty(); ++line) {
    size_t nl = help.find('\n');
    if (line > 0) out.append(kHelpColumn, ' ');
    out.append(help.substr(0, nl)).push_back('\n');
    help.remove_prefix(nl == std::string_view::npos ? help.size() : nl + 1);
  }
}

// The word the user typed for a refused option: "-x" or "--xyz".
std::string OffendingName(char** argv) {
  bool short_option = optopt > 0 && optopt < kLongOnlyBase;
  if (short_option) return std::string("-") + static_cast<char>(optopt);
  return argv[optind - 1];
}

std::string Spelled(const OptionInfo& o, const char* optarg_text) {
  std::string s = "--" + std::string(o.name);
  if (optarg_text) s.append("=").append(optarg_text);
  return s;
}

// A flag's `=VALUE`: one of its choices (--color=never), else true or false.
Given FlagGiven(const OptionInfo& o, std::string_view value) {
  for (size_t at = 0; at < o.choices.size();) {
    size_t end = std::min(o.choices.find(' ', at), o.choices.size());
    if (o.choices.substr(at, end - at) == value) return {value, true};
    at = end + 1;
  }
  if (o.choices.empty()) return {{}, ParseFlagValue(o.name, value)};
  try {
    return {{}, ParseFlagValue(o.name, value)};
  } catch (const UsageError&) {
  }
  std::string flag = "--" + std::string(o.name);
  throw UsageError(flag + "=" + std::string(value) + ": not one of " + std::string(o.choices) +
                   " (write " + flag + "=" + std::string(o.choices.substr(0, o.choices.find(' '))) + ")");
}

// A listed flag besides -h/--help.
bool TakesFlags(const std::vector<const OptionInfo*>& options) {
  for (const OptionInfo* o : options)
    if (o->is_flag() && !o->hidden && o->name != "help") return true;
  return false;
}

}  // namespace

std::string OptionInfo::OneLine() const {
  if (!brief.empty()) return std::string(brief);
  std::string out = help;
  for (char& c : out)
    if (c == '\n') c = ' ';
  return out;
}

bool ParseFlagValue(std::string_view name, std::string_view text) {
  for (std::string_view yes : {"1", "t", "T", "TRUE", "true", "True"})
    if (text == yes) return true;
  for (std::string_view no : {"0", "f", "F", "FALSE", "false", "False"})
    if (text == no) return false;
  std::string flag = "--" + std::string(name);
  throw UsageError(flag + "=" + std::string(text) + ": not true or false (write " + flag +
                   "=true or " + flag + "=false)");
}

std::string UsageText(const CommandText& text, const std::vector<const OptionInfo*>& options) {
  std::string out = "Usage: perfmonger " + std::string(text.name) + " " +
                    std::string(text.synopsis) + "\n\n";
  out.append(text.about);
  std::string_view section = "\x01";  // none printed yet
  for (const OptionInfo* o : options) {
    if (o->hidden) continue;
    if (o->section != section) {
      section = o->section;
      out.append("\n").append(section.empty() ? "Options:" : section).append("\n");
    }
    AppendOption(out, *o);
  }
  if (TakesFlags(options))
    out.append("\nEvery flag also takes PerfMonger's --FLAG=true or --FLAG=false.\n");
  if (!text.footer.empty()) out.append("\n").append(text.footer);
  return out;
}

std::vector<std::string> ParseOptions(
    const CommandText& command, const std::vector<const OptionInfo*>& options, int argc,
    char** argv, const std::function<void(size_t, const Given&)>& apply,
    std::vector<Occurrence>* occurrences) {
  // "+": stop at the first operand; ":": report a missing value as ':'.
  std::string shortopts = command.operands_end_options ? "+:" : ":";
  std::vector<struct option> longopts;
  for (size_t i = 0; i < options.size(); ++i) {
    const OptionInfo& o = *options[i];
    if (o.short_name) shortopts.append(1, o.short_name).append(o.is_flag() ? "" : ":");
    longopts.push_back({o.name.data(), o.is_flag() ? optional_argument : required_argument,
                        nullptr, kLongOnlyBase + static_cast<int>(i)});
  }
  longopts.push_back({nullptr, 0, nullptr, 0});
  std::string see = " (see perfmonger " + std::string(command.name) + " --help)";
  optind = 0;  // 0: glibc re-reads the "+" (no permutation) of each call
  opterr = 0;
  for (int opt; (opt = getopt_long(argc, argv, shortopts.c_str(), longopts.data(), nullptr)) != -1;) {
    if (opt == '?' || opt == ':')
      throw UsageError(std::string(opt == ':' ? "option needs a value: " : "unknown option: ") +
                       OffendingName(argv) + see);
    size_t i = 0;
    if (opt >= kLongOnlyBase) {
      i = static_cast<size_t>(opt - kLongOnlyBase);
    } else {
      while (options[i]->short_name != opt) ++i;
    }
    const OptionInfo& o = *options[i];
    Given given;
    if (o.is_flag() && optarg) given = FlagGiven(o, optarg);
    if (!o.is_flag()) given.value = optarg;
    apply(i, given);
    if (occurrences) occurrences->push_back({&o, Spelled(o, optarg)});
  }
  return std::vector<std::string>(argv + optind, argv + argc);
}

}  // namespace pm

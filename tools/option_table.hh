// Every subcommand's command line as one table: each option's names, value,
// help text and effect in one entry. The getopt_long tables, the --help
// text and (for record) the background child's arguments are all derived
// from it, and the tables are data a completion generator or a man-page
// check can walk (tools/command_catalog.hh).
//
// Boolean flags also take PerfMonger's (Go's) `--FLAG=true|false` form:
// `--no-net=false` undoes `--no-net`. Short flags never take a value, so
// `-cp` stays two flags.
#pragma once

#include <functional>
#include <utility>
#include <string>
#include <string_view>
#include <vector>

namespace pm {

// What a value or an operand is, for the shell completion scripts
// (tools/completion/completion_script.hh): what they offer for it.
enum class Completes {
  kNothing,     // a number, a duration, a name: nothing to offer
  kFile,
  kDirectory,
  kRecording,   // *.pgr, *.pgr.gz, *.pgr.zst (and directories)
  kDevice,      // block devices, from /proc/diskstats
  kCgroup,      // groups below the cgroup2 mount
  kPid,         // running processes, with their command names
  kCommand,     // a command and then its own arguments
};

struct OptionInfo {
  std::string_view name = {};    // long name, without "--"
  char short_name = 0;           // 0: none
  std::string_view value = {};   // what the value is ("PATH", "DUR"); "": a flag
  std::string help = {};         // for --help; '\n' starts another line
  // Completion's one-line description; "": `help`, its lines joined.
  std::string_view brief = {};
  std::string_view section = {}; // heading it is listed under; "": "Options:"
  // The values it takes, space-separated (completion); a flag with choices
  // takes them as `--FLAG=VALUE` too (--color=never), shown "--FLAG[=WHEN]".
  std::string_view choices = {};
  Completes completes = Completes::kNothing;  // the value's, when not `choices`
  bool hidden = false;      // internal: accepted, never listed
  bool to_child = false;    // record: the --background child gets it too

  bool is_flag() const { return value.empty(); }
  // `brief`, else `help` on one line: what completion shows beside it.
  std::string OneLine() const;
};

// What the user wrote for one option: the value, or for a flag whether it
// was turned on (`--FLAG`, `--FLAG=true`) or off (`--FLAG=false`).
struct Given {
  std::string_view value;
  bool on = true;
};

template <class Args>
struct Option : OptionInfo {
  std::function<void(Args&, const Given&)> apply;
};

// How one occurrence was spelled, normalised to `--name[=value]`.
struct Occurrence {
  const OptionInfo* option;
  std::string spelled;
};

// A subcommand's help around its option list.
struct CommandText {
  std::string_view name;      // "record"
  std::string_view synopsis;  // "[options] [FILE]"
  std::string_view about;     // paragraphs between the usage line and options
  std::string_view footer;    // paragraphs after the options
  bool operands_end_options = false;  // stat: CMD's own options are CMD's
};

// "Usage: perfmonger NAME SYNOPSIS", about, every listed option grouped by
// section, footer.
std::string UsageText(const CommandText& text, const std::vector<const OptionInfo*>& options);

// getopt_long over `options`. Calls apply(i, given) for each option in
// command-line order and returns the operands. Throws UsageError naming the
// option and `perfmonger NAME --help`.
std::vector<std::string> ParseOptions(
    const CommandText& command, const std::vector<const OptionInfo*>& options, int argc,
    char** argv, const std::function<void(size_t, const Given&)>& apply,
    std::vector<Occurrence>* occurrences = nullptr);

// Go's strconv.ParseBool: 1 t T TRUE true True / 0 f F FALSE false False.
// Throws UsageError naming `--name`.
bool ParseFlagValue(std::string_view name, std::string_view text);

template <class Args>
Option<Args> MakeOption(OptionInfo info, std::function<void(Args&, const Given&)> apply) {
  Option<Args> o;
  static_cast<OptionInfo&>(o) = std::move(info);
  o.apply = std::move(apply);
  return o;
}

// Another command's option applied to the part of Args it parses: stat and
// live take record's options into their StatArgs::record.
template <class Args, class Inner>
Option<Args> Lifted(const Option<Inner>& inner, Inner Args::*part) {
  Option<Args> o;
  static_cast<OptionInfo&>(o) = inner;
  o.apply = [apply = inner.apply, part](Args& a, const Given& g) { apply(a.*part, g); };
  return o;
}

template <class Args>
struct Command {
  CommandText text;
  std::vector<Option<Args>> options;

  std::vector<const OptionInfo*> Infos() const {
    std::vector<const OptionInfo*> out;
    for (const Option<Args>& o : options) out.push_back(&o);
    return out;
  }
  std::string Usage() const { return UsageText(text, Infos()); }

  // Applies every option to `args`; returns the operands.
  std::vector<std::string> Parse(int argc, char** argv, Args& args,
                                 std::vector<Occurrence>* occurrences = nullptr) const {
    return ParseOptions(
        text, Infos(), argc, argv,
        [&](size_t i, const Given& given) { options[i].apply(args, given); }, occurrences);
  }
};

}  // namespace pm

#include "tools/record/record_args.hh"

#include <algorithm>
#include <string>
#include <string_view>

#include "common/error.hh"

namespace pm {
namespace {

bool WasGiven(const std::vector<Occurrence>& occurrences, std::string_view name) {
  return std::any_of(occurrences.begin(), occurrences.end(),
                     [name](const Occurrence& o) { return o.option->name == name; });
}

// Rotation writes into a directory the user names.
void CheckRotation(const RecordArgs& p, const std::vector<Occurrence>& given) {
  if (WasGiven(given, "keep") && !p.config.rotate.on())
    throw UsageError("--keep goes with --rotate (it deletes the files rotation wrote)");
  if (!p.config.rotate.on()) return;
  if (!p.output_given || p.config.output == "-")
    throw UsageError("--rotate writes one file per period into a directory: name it "
                     "with -l DIR/");
}

// Options that only mean something with another one: refused rather than
// silently ignored (a --kill-timeout alone would start a recording).
void CheckDependents(const RecordArgs& p, const std::vector<Occurrence>& given) {
  if (WasGiven(given, "kill-timeout") && !p.kill)
    throw UsageError("--kill-timeout goes with --kill (it bounds how long --kill waits)");
  if (WasGiven(given, "ready-timeout") && !p.background)
    throw UsageError("--ready-timeout goes with --background (it bounds the wait for "
                     "the detached child)");
  if (WasGiven(given, "log") && !p.background)
    throw UsageError("--log goes with --background (a foreground recording writes to "
                     "the terminal)");
  if (p.json && !p.status) throw UsageError("--json goes with --status");
  CheckRotation(p, given);
}

void CheckCombination(const RecordArgs& p, const std::vector<Occurrence>& given) {
  const RecordConfig& c = p.config;
  if (p.background && (c.ready_fd || c.stop_fd || c.cmd_fd || c.ack_fd))
    throw UsageError(
        "--background cannot be combined with --ready-fd, --stop-fd, --cmd-fd "
        "or --ack-fd (the detached child would not inherit them); drop one or "
        "the other");
  if (c.start_paused && !c.cmd_fd)
    throw UsageError("--start-paused needs --cmd-fd (only a resume command ends the pause)");
  if (c.ack_fd && !c.cmd_fd)
    throw UsageError("--ack-fd needs --cmd-fd (it carries the replies to commands)");
  if (p.status && p.kill)
    throw UsageError("--status and --kill exclude each other; give one");
  CheckDependents(p, given);
  if (c.session && !c.ready_fd)
    throw UsageError("--background-child is internal to --background");
  if (c.interval_ns < 1'000'000)
    throw UsageError("--interval must be at least 1ms");
}

}  // namespace

void FinishRecordArgs(RecordArgs& p, const std::vector<Occurrence>& given) {
  if (p.config.no_gzip && !p.output_given) p.config.output = "perfmonger.pgr";
  CheckCombination(p, given);
  for (const Occurrence& o : given)
    if (o.option->to_child) p.child_options.push_back(o.spelled);
}

RecordArgs ParseRecordArgs(int argc, char** argv) {
  RecordArgs p;
  std::vector<Occurrence> given;
  std::vector<std::string> operands = RecordCommand().Parse(argc, argv, p, &given);
  if (!operands.empty())
    throw UsageError("unexpected argument '" + operands[0] +
                     "' (see perfmonger record --help)");
  if (p.help) return p;
  FinishRecordArgs(p, given);
  return p;
}

std::vector<std::string> ChildArgs(const RecordArgs& args, const std::string& output) {
  std::vector<std::string> child = {"record", "--background-child"};
  child.insert(child.end(), args.child_options.begin(), args.child_options.end());
  child.push_back("--logfile=" + output);
  return child;
}

}  // namespace pm

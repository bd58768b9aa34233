#include "tools/stat_cli.hh"

#include <signal.h>
#include <string.h>

#include <cerrno>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "common/error.hh"
#include "common/io.hh"
#include "daemon/recorder.hh"
#include "daemon/signal_source.hh"
#include "playback/phases.hh"
#include "playback/summary.hh"
#include "tools/command_spawn.hh"
#include "tools/record_args.hh"
#include "tools/recording_input.hh"

namespace pm {
namespace {

const char kStatUsage[] = R"(Usage: perfmonger stat [options] [--json] -- CMD [ARGS...]

Run CMD while recording system activity, then print a summary of the
recording. The first sample is on disk before CMD starts and the last one
is taken the moment it exits. CMD shares stdin, stdout and stderr.

Options:
  -l, --logfile PATH     the recording (default ./perfmonger.pgr); .gz and
                         .zst are compressed
  -i, --interval DUR     sampling interval (default 1s); seconds or 500ms
      --json             the summary as one JSON object
  -d, --disk, --record-intr, --no-cpu, --no-disk, --no-net, --no-mem,
  --no-gzip, --meta KEY=VALUE, --root DIR: as for perfmonger record
  -h, --help             show this help

After CMD: `Command failed: exit status N` on stderr when it failed, then
`== Performance Summary ==` on stderr and the summary on stdout. SIGINT
and SIGTERM are passed to CMD. Exit status: CMD's (128 + signal when a
signal killed it); 2 if CMD succeeded but the recording failed; 127 if CMD
could not be started; 1 for a usage or setup error.
)";

constexpr int kJsonOption = 1000;

struct StatArgs {
  RecordArgs record;
  bool json = false;
  std::vector<std::string> command;
};

void PrintError(const std::string& message) {
  std::fprintf(stderr, "perfmonger stat: error: %s\n", message.c_str());
}

// The recording ends when CMD exits: options that end or hold it otherwise
// do not apply.
void CheckStatOptions(const RecordArgs& a) {
  const RecordConfig& c = a.config;
  if (a.background || a.status || a.kill)
    throw UsageError("stat records in the foreground: drop --background, --status, --kill");
  if (c.ready_fd || c.stop_fd || c.cmd_fd || c.ack_fd)
    throw UsageError("stat takes no --ready-fd, --stop-fd, --cmd-fd or --ack-fd "
                     "(use perfmonger record to drive a recording through fds)");
  if (c.timeout_ns > 0 || c.start_delay_ns > 0)
    throw UsageError("stat records from CMD's start to its exit: drop --timeout "
                     "and --start-delay");
}

StatArgs ParseStatArgs(int argc, char** argv) {
  StatArgs s;
  CommandOptions own;
  own.command = "stat";
  own.long_options = {{"json", no_argument, nullptr, kJsonOption}};
  own.apply = [&](int, const char*) { s.json = true; };
  own.operands = true;
  int first = 0;
  s.record = ParseRecordArgsFor(argc, argv, own, first);
  if (s.record.help) return s;
  CheckStatOptions(s.record);
  if (!s.record.output_given) s.record.config.output = "perfmonger.pgr";
  s.command.assign(argv + first, argv + argc);
  if (s.command.empty())
    throw UsageError("no command to run: give it after --, as in "
                     "perfmonger stat -- sleep 1");
  return s;
}

std::string Joined(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out.append(out.empty() ? "" : " ").append(w);
  return out;
}

// The recording read back as `summary` reads it.
std::string Summary(const std::string& path, const StatArgs& args) {
  RecordingInput input(path);
  if (!input.Open()) throw FormatError(path + " is empty");
  ActiveSpan span;
  RawSample sample;
  RecordingEvent event;
  for (;;) {
    RecordingReader::Item item = input.Next(sample, event);
    if (item == RecordingReader::Item::kEnd) break;
    if (item == RecordingReader::Item::kSample) span.Sample(sample);
  }
  if (span.empty()) throw FormatError(path + " has no samples");
  RawSample end = span.ActiveEnd();
  SummaryInput in;
  in.title_file = "Command: " + Joined(args.command);
  in.first = &span.first();
  in.last = &end;
  in.meta = input.info().meta;
  return args.json ? SummaryJson(in) : SummaryText(in);
}

void UnblockStopSignals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigprocmask(SIG_UNBLOCK, &set, nullptr);
}

struct CommandRun {
  std::optional<pid_t> pid;   // set once CMD started
  std::string spawn_error;    // why it did not
};

// Records from just before CMD starts to the instant it exits.
int Record(const StatArgs& args, CommandRun& run, std::optional<std::string>& failure) {
  // Until the signalfd exists, SIGINT and SIGTERM wait; then they go to CMD.
  SignalSource::BlockStopSignals();
  Recorder recorder;
  recorder.SetChildSpawner([&]() -> UniqueFd {
    try {
      SpawnedCommand command = SpawnCommand(args.command);
      run.pid = command.pid;
      return std::move(command.pidfd);
    } catch (const std::system_error& e) {
      run.spawn_error = e.what();
      return UniqueFd();
    }
  });
  recorder.Setup(args.record.config);
  recorder.Run();
  failure = recorder.failure();
  return failure ? 2 : 0;
}

int Stat(const StatArgs& args) {
  CommandRun run;
  std::optional<std::string> failure;
  try {
    Record(args, run, failure);
  } catch (const std::exception& e) {  // a setup error: CMD not run
    PrintError(e.what());
    return 1;
  }
  if (!run.pid) {  // CMD not run: it could not be, or the recording failed first
    if (failure) PrintError(*failure);
    if (run.spawn_error.empty()) return 2;
    PrintError(run.spawn_error);
    return 127;
  }
  // A recording that failed early leaves CMD running: wait for it, and
  // let a signal end us as it would without a recording.
  if (failure) UnblockStopSignals();
  int signo = 0;
  int status = ReapCommand(*run.pid, &signo);
  if (signo != 0)
    std::fprintf(stderr, "Command failed: exit status %d (killed by signal %d: %s)\n",
                 status, signo, strsignal(signo));
  else if (status != 0)
    std::fprintf(stderr, "Command failed: exit status %d\n", status);
  if (failure) {
    PrintError(*failure);
    return status == 0 ? 2 : status;
  }
  try {
    std::string report = Summary(AbsolutePath(args.record.config.output), args);
    std::fputs("== Performance Summary ==\n", stderr);
    WriteAll(1, report);
  } catch (const std::system_error& e) {
    if (e.code().value() == EPIPE) return status;  // the reader had enough
    PrintError(e.what());
    return status == 0 ? 2 : status;
  } catch (const std::exception& e) {
    PrintError(e.what());
    return status == 0 ? 2 : status;
  }
  return status;
}

}  // namespace

int StatMain(int argc, char** argv) {
  StatArgs args;
  try {
    args = ParseStatArgs(argc, argv);
  } catch (const std::exception& e) {
    PrintError(e.what());
    return 1;
  }
  if (args.record.help) {
    std::fputs(kStatUsage, stdout);
    return 0;
  }
  return Stat(args);
}

}  // namespace pm

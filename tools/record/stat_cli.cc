#include "tools/record/stat_cli.hh"

#include <signal.h>
#include <string.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cerrno>
#include <cstring>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "common/error.hh"
#include "common/io.hh"
#include "daemon/recorder.hh"
#include "daemon/signal_source.hh"
#include "playback/reports/clock_report.hh"
#include "playback/outputs/phases.hh"
#include "playback/outputs/summary.hh"
#include "proto/json.hh"
#include "proto/pgr_collector_spec.hh"
#include "proto/pgr_format.hh"
#include "proto/text.hh"
#include "tools/record/command_spawn.hh"
#include "tools/readers/noise_options.hh"
#include "tools/record/record_args.hh"
#include "tools/readers/recording_input.hh"

namespace pm {
namespace {

constexpr char kStatAbout[] =
    R"(Run CMD while recording system activity, then print a summary of the
recording. The first sample is on disk before CMD starts and the last one
is taken the moment it exits. CMD shares stdin, stdout and stderr.
)";

constexpr char kStatFooter[] =
    R"(The recording options are perfmonger record's. After CMD: `Command
failed: exit status N` on stderr when it failed, then `== Performance
Summary ==` on stderr and the summary on stdout. SIGINT and SIGTERM are
passed to CMD. Exit status: CMD's (128 + signal when a signal killed it); 2
if CMD succeeded but the recording failed; 127 if CMD could not be started;
1 for a usage or setup error.
)";

void PrintError(const std::string& message) {
  std::fprintf(stderr, "perfmonger stat: error: %s\n", Printable(message).c_str());
}

int ParseNoisyExit(std::string_view value) {
  int n = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
  if (ec != std::errc() || end != value.data() + value.size() || n < 1 || n > 255)
    throw UsageError("--noisy-exit '" + std::string(value) +
                     "': not an exit status (write e.g. --noisy-exit 75)");
  return n;
}

// record's options that make sense when CMD's exit ends the recording
// (no timeout, start delay, fds or session), then stat's own.
Command<StatArgs> BuildStatCommand() {
  Command<StatArgs> c{{"stat", "[options] -- CMD [ARGS...]", kStatAbout, kStatFooter,
                       /*operands_end_options=*/true}, {}};
  auto take = [&c](const std::vector<Option<RecordArgs>>& options) {
    for (const Option<RecordArgs>& o : options) c.options.push_back(Lifted(o, &StatArgs::record));
  };
  take(RecordOptions({"logfile", "interval", "disk"}));
  c.options[0].help = "the recording (default ./perfmonger.pgr); .gz and\n.zst are compressed";
  c.options[0].brief = "the recording (default ./perfmonger.pgr)";
  take(CollectorOptions());
  take(RecordOptions({"no-gzip", "meta", "root"}));
  c.options.push_back(MakeOption<StatArgs>(
      {.name = "json", .help = "the summary as one JSON object"},
      [](StatArgs& a, const Given& g) { a.json = g.on; }));
  for (const Option<NoiseThresholds>& o : NoiseOptions()) c.options.push_back(Lifted(o, &StatArgs::noise));
  c.options.push_back(MakeOption<StatArgs>(
      {.name = "noisy-exit", .value = "N",
       .help = "exit N (1 to 255) when CMD succeeded but the run was\nNOISY, so CI can retry it",
       .brief = "exit N when CMD succeeded but the run was NOISY", .section = "Verdict:"},
      [](StatArgs& a, const Given& g) { a.noisy_exit = ParseNoisyExit(g.value); }));
  take(RecordOptions({"help"}));
  return c;
}

}  // namespace

const Command<StatArgs>& StatCommand() {
  static const Command<StatArgs> command = BuildStatCommand();
  return command;
}

StatArgs ParseStatArgs(int argc, char** argv) {
  StatArgs s;
  // CMD's own process and the collectors the descriptors name for stat
  // (on_for_stat), unless --record-pressure=false, --record-load=false, ...
  for (const CollectorSpec& c : Collectors())
    if (c.on_for_stat) s.record.config.collectors.on(c.name) = true;
  s.record.config.collectors.command_process = true;
  std::vector<Occurrence> given;
  s.command = StatCommand().Parse(argc, argv, s, &given);
  if (s.record.help) return s;
  FinishRecordArgs(s.record, given);
  if (!s.command.empty()) {
    // What the kernel names the process once it runs: the file's base
    // name, cut to TASK_COMM_LEN - 1 bytes.
    std::string_view file = s.command.front();
    file = file.substr(file.rfind('/') + 1);
    s.record.config.collectors.command_comm = std::string(file.substr(0, 15));
  }
  if (!s.record.output_given) s.record.config.output = "perfmonger.pgr";
  if (s.command.empty())
    throw UsageError("no command to run: give it after --, as in "
                     "perfmonger stat -- sleep 1");
  return s;
}

namespace {

// One word as a POSIX shell reads it back: bare when it holds nothing the
// shell would split or expand, else single-quoted (a ' as '\'').
std::string ShellWord(const std::string& word) {
  auto plain = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || std::strchr("@%+=:,./_-", c);
  };
  if (!word.empty() && std::all_of(word.begin(), word.end(), plain)) return word;
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out += '\'';
}

// CMD as it would be typed: `sh -c "$(that)"` runs the same argv.
std::string ShellLine(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out.append(out.empty() ? "" : " ").append(ShellWord(w));
  return out;
}

// How CMD ended: its exit status, or the signal that killed it.
struct CommandEnd {
  int status = 0;  // 128 + signal when killed
  int signo = 0;
};

// stat's own members, first in the JSON object:
//   "command":{"argv":[..],"exit_status":N[,"signal":S],"start":T,"end":T}
// start and end: the first and the last sample, which bracket CMD.
std::string CommandJson(const StatArgs& args, const CommandEnd& end, const RawSample& first,
                        const RawSample& last) {
  std::string out;
  JsonObjectWriter o(out);
  std::string& argv = o.Key("argv");
  argv.push_back('[');
  for (const std::string& word : args.command) {
    if (argv.back() != '[') argv.push_back(',');
    AppendJsonString(argv, word);
  }
  argv.push_back(']');
  o.Int("exit_status", end.status);
  if (end.signo != 0) o.Int("signal", end.signo);
  o.Str("start", FormatRfc3339(first.time_ns)).Str("end", FormatRfc3339(last.time_ns));
  o.Close();
  return out;
}

// The recording read back as `summary` reads it; `noisy` gets the verdict.
std::string Summary(const std::string& path, const StatArgs& args, const CommandEnd& end,
                    bool& noisy) {
  // Every sample: the first and the last bracket CMD exactly, however
  // short it ran (a pair within one tick is CMD's own width, not a late
  // tick's), so no sample is left out for its width.
  RecordingInput input(path);
  if (!input.Open()) throw FormatError(path + " is empty");
  PhaseWalk walk(false);
  ClockHistory clocks(input.info());
  RawSample sample;
  RecordingEvent event;
  for (;;) {
    RecordingReader::Item item = input.Next(sample, event);
    if (item == RecordingReader::Item::kEnd) break;
    if (item == RecordingReader::Item::kSample) walk.OnSample(sample);
    else clocks.OnEvent(event), walk.OnEvent(event);
  }
  const ActiveSpan& span = walk.whole();
  if (span.empty()) throw FormatError(path + " has no samples");
  RawSample last = span.ActiveEnd();
  std::optional<SpanVerdict> verdict =
      JudgeSpan(span.first(), last, walk.whole_scans(), input.info(), args.noise);
  noisy = verdict && verdict->verdict.noisy;
  SummaryInput in;
  in.title_file = "Command: " + ShellLine(args.command);
  in.first = &span.first();
  in.last = &last;
  in.meta = input.info().meta;
  in.info = &input.info();
  // A lone machine's clock meets no other host's: no Clock: block in the
  // text (tools/readers/clock_warning.hh); --json keeps the object.
  if (args.json) in.clock = &clocks;
  if (verdict) in.verdict = &*verdict;
  if (!args.json) return SummaryText(in);
  std::string json = SummaryJson(in);
  return json.insert(1, "\"command\":" + CommandJson(args, end, span.first(), span.last()) + ",");
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
      SpawnedChild command = SpawnCommand(args.command);
      run.pid = command.pid;
      recorder.CommandStarted(command.pid);
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
  CommandEnd end{status, signo};
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
    bool noisy = false;
    std::string report = Summary(AbsolutePath(args.record.config.output), args, end, noisy);
    std::fputs("== Performance Summary ==\n", stderr);
    WriteAll(1, report);
    if (noisy && status == 0 && args.noisy_exit) return *args.noisy_exit;
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
    std::fputs(StatCommand().Usage().c_str(), stdout);
    return 0;
  }
  return Stat(args);
}

}  // namespace pm

#include "tools/record/record_cli.hh"

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>

#include "common/error.hh"
#include "common/io.hh"
#include "daemon/launcher.hh"
#include "daemon/recorder.hh"
#include "daemon/test_clock.hh"
#include "daemon/signal_source.hh"
#include "proto/text.hh"
#include "tools/record/background_cli.hh"
#include "tools/record/record_args.hh"
#include "tools/record/session_cli.hh"

namespace pm {
namespace {

void PrintError(const char* message) {
  std::fprintf(stderr, "perfmonger record: error: %s\n", Printable(message).c_str());
}

// The --background launcher waits for its child's ready line; a setup
// error is sent there instead, for the launcher to relay.
void ReportToLauncher(int ready_fd, const char* message) {
  try {
    WriteAll(ready_fd, EncodeChildError(message));
  } catch (const std::exception&) {
    // The launcher has gone: stderr (its --log) has the message already.
  }
}

// Below the kernel's clock tick (USER_HZ) /proc/stat does not move between
// most samples: CPU lines come out all zero. Said once, at the start.
void WarnBelowClockTick(const RecordConfig& config) {
  long hz = sysconf(_SC_CLK_TCK);
  if (hz <= 0 || config.ready_fd == 2) return;  // fd 2 is the ready pipe
  int64_t tick_ns = 1'000'000'000 / hz;
  if (config.interval_ns >= tick_ns) return;
  std::fprintf(stderr,
               "perfmonger record: warning: the interval (%.3f ms) is below the "
               "kernel's clock tick (%.3f ms): most CPU samples will show no "
               "change; use -i %.0fms or more\n",
               static_cast<double>(config.interval_ns) / 1e6,
               static_cast<double>(tick_ns) / 1e6, static_cast<double>(tick_ns) / 1e6);
}

// docs/testing.md: a wall clock a test moves (daemon/test_clock.hh).
std::unique_ptr<Clock> TestClockFromEnvironment() {
  const char* text = std::getenv(kTestClockVariable);
  if (!text) return nullptr;
  std::optional<TestClockSetting> setting = ParseTestClock(text);
  if (!setting)
    throw UsageError(std::string(kTestClockVariable) + "='" + text +
                     "': write START[:SPEED] (Unix seconds, speed 1 to 1000000)");
  return MakeTestClock(*setting);
}

int Record(const RecordArgs& args) {
  // Until the signalfd exists, a SIGINT or SIGTERM waits instead of killing
  // us half-way through creating the output; then it stops us gracefully.
  SignalSource::BlockStopSignals();
  std::optional<Recorder> recorder;
  try {
    std::unique_ptr<Clock> test_clock = TestClockFromEnvironment();
    recorder.emplace(test_clock ? *test_clock : SystemClock());
    recorder->Setup(args.config);
    if (!args.config.ready_fd)
      std::fprintf(stderr, "[recording to %s]\n", recorder->output_path().c_str());
    WarnBelowClockTick(args.config);
    recorder->Run();  // throws if nothing usable was ever written
  } catch (const std::exception& e) {
    PrintError(e.what());
    if (args.config.session) ReportToLauncher(*args.config.ready_fd, e.what());
    return 1;
  }
  if (!recorder->failure()) return 0;
  PrintError(recorder->failure()->c_str());
  return 2;  // a collection error after the start: what was flushed is kept
}

}  // namespace

int RecordMain(int argc, char** argv) {
  try {
    RecordArgs args = ParseRecordArgs(argc, argv);
    if (args.help) {
      std::fputs(RecordCommand().Usage().c_str(), stdout);
      return 0;
    }
    if (args.status) return SessionStatus(args.json);
    if (args.kill) return SessionKill(args.kill_timeout_ns);
    if (args.background) return RecordInBackground(args, argc, argv);
    return Record(args);
  } catch (const std::exception& e) {
    PrintError(e.what());
    return 1;
  }
}

}  // namespace pm

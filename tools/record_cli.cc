#include "tools/record_cli.hh"

#include <cstdio>
#include <optional>
#include <string>

#include "common/io.hh"
#include "daemon/launcher.hh"
#include "daemon/recorder.hh"
#include "daemon/signal_source.hh"
#include "tools/background_cli.hh"
#include "tools/record_args.hh"
#include "tools/session_cli.hh"

namespace pm {
namespace {

void PrintError(const char* message) {
  std::fprintf(stderr, "perfmonger record: error: %s\n", message);
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

int Record(const RecordArgs& args) {
  // Until the signalfd exists, a SIGINT or SIGTERM waits instead of killing
  // us half-way through creating the output; then it stops us gracefully.
  SignalSource::BlockStopSignals();
  std::optional<Recorder> recorder;
  try {
    recorder.emplace();
    recorder->Setup(args.config);
    if (!args.config.ready_fd)
      std::fprintf(stderr, "[recording to %s]\n", recorder->output_path().c_str());
  } catch (const std::exception& e) {
    PrintError(e.what());
    if (args.config.session) ReportToLauncher(*args.config.ready_fd, e.what());
    return 1;
  }
  recorder->Run();
  if (!recorder->failure()) return 0;
  PrintError(recorder->failure()->c_str());
  return 2;  // a collection error after the start: what was flushed is kept
}

}  // namespace

int RecordMain(int argc, char** argv) {
  try {
    RecordArgs args = ParseRecordArgs(argc, argv);
    if (args.help) {
      std::fputs(kRecordUsage, stdout);
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

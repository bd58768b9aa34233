#include "tools/live_cli.hh"

#include <cerrno>
#include <cstdio>
#include <optional>
#include <string>

#include "common/error.hh"
#include "common/io.hh"
#include "daemon/recorder.hh"
#include "daemon/signal_source.hh"
#include "tools/live_play.hh"
#include "tools/record_args.hh"

namespace pm {
namespace {

const char kLiveUsage[] = R"(Usage: perfmonger live [options] [-c|--color] [--pretty]

Record system activity and print it as it is sampled: one JSON line of
rates per interval, as perfmonger play prints them, from the second sample
on. Each line is written as soon as its sample is taken.

Options:
  -i, --interval DUR     sampling interval (default 1s); seconds or 500ms
  -t, --timeout DUR      stop after DUR (default: until stopped)
  -l, --logfile PATH     keep a recording too (default: none)
  -c, --color            colour keys, strings and numbers (ANSI escapes)
      --pretty           PerfMonger's layout: members wrapped at 80 columns
  -s, -d, --record-intr, --no-cpu, --no-disk, --no-net, --no-mem,
  --no-gzip, --meta, --root, --stop-fd, --cmd-fd, --ack-fd: as for
  perfmonger record (not --background)
  -h, --help             show this help

Stops at SIGINT, SIGTERM, --timeout, or when stdout is closed (a reader
such as head(1) went away), with exit status 0. Exit status: 1 setup
error, 2 collection error or a failing stdout.
)";

constexpr int kPrettyOption = 1000;

struct LiveArgs {
  RecordArgs record;
  bool color = false;
  bool pretty = false;
};

void PrintError(const std::string& message) {
  std::fprintf(stderr, "perfmonger live: error: %s\n", message.c_str());
}

LiveArgs ParseLiveArgs(int argc, char** argv) {
  LiveArgs l;
  CommandOptions own;
  own.command = "live";
  own.short_options = "c";
  own.long_options = {{"color", no_argument, nullptr, 'c'},
                      {"pretty", no_argument, nullptr, kPrettyOption}};
  own.apply = [&](int opt, const char*) { (opt == 'c' ? l.color : l.pretty) = true; };
  int first = 0;
  l.record = ParseRecordArgsFor(argc, argv, own, first);
  const RecordArgs& r = l.record;
  if (r.background || r.status || r.kill)
    throw UsageError("live prints as it records, in the foreground: drop "
                     "--background, --status, --kill");
  l.record.config.no_file = !r.output_given;
  return l;
}

// Play lines to stdout, one write per sample. A reader gone (EPIPE) stops
// the recording quietly; another write error stops it as a failure.
class StdoutPlayer final : public RecordingObserver {
 public:
  StdoutPlayer(const LiveArgs& args, Recorder& recorder)
      : play_(args.pretty, args.color), recorder_(recorder) {}

  void OnLines(std::string_view lines) noexcept override {
    if (stopped_) return;
    try {
      out_.clear();
      play_.Push(lines, out_);
      if (!out_.empty()) WriteAll(1, out_);
    } catch (const std::system_error& e) {
      if (e.code().value() != EPIPE) error_ = std::string("stdout: ") + e.what();
      Halt();
    } catch (const std::exception& e) {
      error_ = e.what();
      Halt();
    }
  }

  const std::optional<std::string>& error() const { return error_; }

 private:
  void Halt() noexcept {
    stopped_ = true;
    recorder_.RequestStop(error_ ? "stdout-error" : "stdout-closed");
  }

  LivePlay play_;
  Recorder& recorder_;
  std::string out_;
  bool stopped_ = false;
  std::optional<std::string> error_;
};

int Live(const LiveArgs& args) {
  // Until the signalfd exists, SIGINT and SIGTERM wait; then they stop us.
  SignalSource::BlockStopSignals();
  std::optional<Recorder> recorder;
  std::optional<StdoutPlayer> player;
  try {
    recorder.emplace();
    player.emplace(args, *recorder);
    recorder->SetObserver(*player);
    // A pipe's reader leaving ends us at once, not at the next sample.
    if (HangupSource::CanWatch(1)) recorder->StopOnHangup(1);
    recorder->Setup(args.record.config);
  } catch (const std::exception& e) {
    PrintError(e.what());
    return 1;
  }
  recorder->Run();
  int status = recorder->failure() ? 2 : 0;
  if (recorder->failure()) PrintError(*recorder->failure());
  if (player->error()) {
    PrintError(*player->error());
    status = 2;
  }
  return status;
}

}  // namespace

int LiveMain(int argc, char** argv) {
  try {
    LiveArgs args = ParseLiveArgs(argc, argv);
    if (args.record.help) {
      std::fputs(kLiveUsage, stdout);
      return 0;
    }
    return Live(args);
  } catch (const std::exception& e) {
    PrintError(e.what());
    return 1;
  }
}

}  // namespace pm

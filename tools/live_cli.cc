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

constexpr char kLiveAbout[] =
    R"(Record system activity and print it as it is sampled: one JSON line of
rates per interval, as perfmonger play prints them, from the second sample
on. Each line is written as soon as its sample is taken.
)";

constexpr char kLiveFooter[] =
    R"(The recording options are perfmonger record's. Stops at SIGINT, SIGTERM,
--timeout, or when stdout is closed (a reader such as head(1) went away),
with exit status 0. Exit status: 1 setup error, 2 collection error or a
failing stdout.
)";

void PrintError(const std::string& message) {
  std::fprintf(stderr, "perfmonger live: error: %s\n", message.c_str());
}

Option<LiveArgs> LiveFlag(OptionInfo info, bool LiveArgs::*field) {
  return MakeOption<LiveArgs>(std::move(info),
                              [field](LiveArgs& a, const Given& g) { a.*field = g.on; });
}

// record's options but the background session's, then live's own.
Command<LiveArgs> BuildLiveCommand() {
  Command<LiveArgs> c{{"live", "[options]", kLiveAbout, kLiveFooter}, {}};
  auto take = [&c](const std::vector<Option<RecordArgs>>& options) {
    for (const Option<RecordArgs>& o : options) c.options.push_back(Lifted(o, &LiveArgs::record));
  };
  take(RecordOptions({"interval", "timeout", "logfile"}));
  c.options.back().help = "keep a recording too (default: none)";
  c.options.back().brief = {};
  c.options.push_back(LiveFlag({.name = "color", .short_name = 'c',
                                .help = "colour keys, strings and numbers (ANSI escapes)"},
                               &LiveArgs::color));
  c.options.push_back(
      LiveFlag({.name = "pretty", .help = "PerfMonger's layout: members wrapped at 80 columns"},
               &LiveArgs::pretty));
  take(RecordOptions({"start-delay", "disk"}));
  take(CollectorOptions());
  take(RecordOptions({"no-gzip", "meta", "root", "ready-fd", "stop-fd", "cmd-fd", "ack-fd",
                      "start-paused", "help"}));
  return c;
}

}  // namespace

const Command<LiveArgs>& LiveCommand() {
  static const Command<LiveArgs> command = BuildLiveCommand();
  return command;
}

LiveArgs ParseLiveArgs(int argc, char** argv) {
  LiveArgs l;
  std::vector<Occurrence> given;
  std::vector<std::string> operands = LiveCommand().Parse(argc, argv, l, &given);
  if (!operands.empty())
    throw UsageError("unexpected argument '" + operands[0] + "' (see perfmonger live --help)");
  if (l.record.help) return l;
  FinishRecordArgs(l.record, given);
  l.record.config.no_file = !l.record.output_given;
  return l;
}

namespace {

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
      std::fputs(LiveCommand().Usage().c_str(), stdout);
      return 0;
    }
    return Live(args);
  } catch (const std::exception& e) {
    PrintError(e.what());
    return 1;
  }
}

}  // namespace pm

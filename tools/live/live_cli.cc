#include "tools/live/live_cli.hh"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <optional>
#include <string>

#include "common/error.hh"
#include "common/io.hh"
#include "daemon/recorder.hh"
#include "daemon/signal_source.hh"
#include "proto/pgr_collector_spec.hh"
#include "proto/text.hh"
#include "tools/live/live_play.hh"
#include "tools/readers/reader_args.hh"
#include "tools/record/record_args.hh"

namespace pm {
namespace {

constexpr char kLiveAbout[] =
    R"(Record system activity and print it as it is sampled, from the second
sample on, each interval as soon as its sample is taken: on a terminal a row
of a table (CPU, disk, network, memory, and what else is recorded, as dstat
shows them, the header repeated every screenful), into a pipe one JSON line
of rates, as perfmonger play prints them.
)";

constexpr char kLiveFooter[] =
    R"(The recording options are perfmonger record's. Stops at SIGINT, SIGTERM,
--timeout, or when stdout is closed (a reader such as head(1) went away),
with exit status 0; the table ends with the last row and an average row.
Exit status: 1 setup error, 2 collection error or a failing stdout.
)";

void PrintError(const std::string& message) {
  std::fprintf(stderr, "perfmonger live: error: %s\n", Printable(message).c_str());
}

Option<LiveArgs> LiveFlag(OptionInfo info, bool LiveArgs::*field) {
  return MakeOption<LiveArgs>(std::move(info),
                              [field](LiveArgs& a, const Given& g) { a.*field = g.on; });
}

// live's own options: what the table or the JSON lines show.
std::vector<Option<LiveArgs>> LiveOwnOptions() {
  std::vector<Option<LiveArgs>> own;
  own.push_back(
      LiveFlag({.name = "table", .help = "the table even into a pipe (default on a terminal)"},
               &LiveArgs::table));
  own.push_back(
      LiveFlag({.name = "json", .help = "JSON lines even on a terminal (default into a pipe)"},
               &LiveArgs::json));
  own.push_back(MakeOption<LiveArgs>(
      {.name = "columns", .value = "LIST",
       .help = "the table's groups: cpu, cpu:N (core N), intr (interrupts\n"
               "and context switches), disk, disk:DEV, net, net:IFACE, mem,\n"
               "load, pressure, procs:PID, cgroups:PATH (default: all\n"
               "recorded that fit the width)",
       .brief = "the table's groups: cpu,cpu:N,disk:DEV,net:IFACE,mem,..."},
      [](LiveArgs& a, const Given& g) { a.columns = g.value; }));
  own.push_back(MakeOption<LiveArgs>(
      {.name = "color", .short_name = 'c',
       .help = "colour (ANSI escapes): always (-c alone), auto or never;\n"
               "the table's default is auto: on a terminal, unless NO_COLOR\n"
               "is set; JSON lines are plain unless asked",
       .brief = "colour: always (alone), auto or never",
       .choices = "always auto never"},
      [](LiveArgs& a, const Given& g) { a.color = ParseColorWhen(g.value, g.on); }));
  own.push_back(
      LiveFlag({.name = "pretty", .help = "JSON in PerfMonger's layout: members wrapped at 80 columns"},
               &LiveArgs::pretty));
  own.push_back(MakeOption<LiveArgs>(
      {.name = "top", .value = "N",
       .help = "table: under each row, the N processes that used the\n"
               "most CPU in its interval, as top lists them (with\n"
               "--record-procs; default 5, 0 none)",
       .brief = "table: the N busiest processes under each row"},
      [](LiveArgs& a, const Given& g) { a.top = TopCount(g.value, 0); }));
  return own;
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
  for (Option<LiveArgs>& o : LiveOwnOptions()) c.options.push_back(std::move(o));
  take(RecordOptions({"start-delay", "disk"}));
  take(CollectorOptions());
  take(RecordOptions({"record-procs"}));
  take(RecordOptions({"no-gzip", "meta", "root", "ready-fd", "stop-fd", "cmd-fd", "ack-fd",
                      "start-paused", "help"}));
  return c;
}

// --columns names the intr group ("intr", "cpu,intr").
bool NamesIntr(std::string_view columns) {
  for (size_t at = 0; at <= columns.size();) {
    size_t comma = std::min(columns.find(',', at), columns.size());
    std::string_view item = columns.substr(at, comma - at);
    if (item == "intr" || item.starts_with("intr:")) return true;
    at = comma + 1;
  }
  return false;
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
  if (l.table && (l.json || l.pretty))
    throw UsageError(std::string(l.json ? "--json" : "--pretty") +
                     " shapes JSON lines: not with --table");
  if (l.top && (l.json || l.pretty))
    throw UsageError("--top lists processes under the table's rows: not with --json or --pretty");
  if (!l.columns.empty() && (l.json || l.pretty))
    throw UsageError("--columns chooses the table's columns: not with --json or --pretty");
  LiveTable check(l.columns);  // a wrong --columns is a usage error now, not at the first row
  l.table = UseTable(l.table, l.json || l.pretty, 1);
  // The table shows the collectors the descriptors name for it
  // (on_for_live_table: the load; JSON lines stay as they were) unless
  // their flag is given (--record-load=false).
  auto named = [&](std::string_view name) {
    return std::any_of(given.begin(), given.end(),
                       [&](const Occurrence& o) { return o.option->name == name; });
  };
  if (l.table)
    for (const CollectorSpec& c : Collectors())
      if (c.on_for_live_table && !named(c.flag)) l.record.config.collectors.on(c.name) = true;
  // --columns intr: its interrupts recorded too, unless --record-intr=false.
  if (l.table && NamesIntr(l.columns) && !named("record-intr"))
    l.record.config.collectors.on("intr") = true;
  FinishRecordArgs(l.record, given);
  l.record.config.no_file = !l.record.output_given;
  return l;
}

namespace {

// Play lines or table rows to stdout, one write per sample. A reader gone
// (EPIPE) stops the recording quietly; another write error stops it as a
// failure.
class StdoutPlayer final : public RecordingObserver {
 public:
  StdoutPlayer(const LiveArgs& args, Recorder& recorder, TableScreen* table)
      : table_(table), recorder_(recorder) {
    if (table) play_.emplace(*table);
    else play_.emplace(args.pretty, UseColor(args.color, false, 1));
  }

  void OnLines(std::string_view lines) noexcept override {
    Write([&] { play_->Push(lines, out_); });
  }

  // The table's average row, once the recording is over.
  void Finish() noexcept {
    if (table_) Write([&] { table_->Finish(out_); });
  }

  const std::optional<std::string>& error() const { return error_; }

 private:
  template <class Fill>
  void Write(Fill fill) noexcept {
    if (stopped_) return;
    try {
      out_.clear();
      fill();
      if (!out_.empty()) WriteAll(1, out_);
    } catch (const std::system_error& e) {
      if (e.code().value() != EPIPE) error_ = std::string("stdout: ") + e.what();
      Halt();
    } catch (const std::exception& e) {
      error_ = e.what();
      Halt();
    }
  }

  void Halt() noexcept {
    stopped_ = true;
    recorder_.RequestStop(error_ ? "stdout-error" : "stdout-closed");
  }

  TableScreen* table_;
  std::optional<LivePlay> play_;
  Recorder& recorder_;
  std::string out_;
  bool stopped_ = false;
  std::optional<std::string> error_;
};

int Live(const LiveArgs& args) {
  // Until the signalfd exists, SIGINT and SIGTERM wait; then they stop us.
  SignalSource::BlockStopSignals();
  std::optional<Recorder> recorder;
  std::optional<TableScreen> table;
  std::optional<StdoutPlayer> player;
  try {
    if (args.table)
      table.emplace(args.columns, UseColor(args.color, true, 1), 1,
                    args.record.config.interval_ns,
                    ProcBlock{args.top.value_or(kTableTop), UserNames::Local()});
    recorder.emplace();
    player.emplace(args, *recorder, table ? &*table : nullptr);
    recorder->SetObserver(*player);
    // A pipe's reader leaving ends us at once, not at the next sample.
    if (HangupSource::CanWatch(1)) recorder->StopOnHangup(1);
    recorder->Setup(args.record.config);
  } catch (const std::exception& e) {
    PrintError(e.what());
    return 1;
  }
  recorder->Run();
  player->Finish();
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

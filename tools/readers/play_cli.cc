#include "tools/readers/play_cli.hh"

#include <cstdio>
#include <optional>
#include <string>

#include <sys/stat.h>
#include <unistd.h>

#include "common/error.hh"
#include "proto/json.hh"
#include "proto/pgr_format.hh"
#include "playback/outputs/csv_keys.hh"
#include "playback/reports/clock_report.hh"
#include "playback/outputs/export_columns.hh"
#include "playback/outputs/export_csv.hh"
#include "proto/text.hh"
#include "playback/outputs/play_json.hh"
#include "playback/outputs/proc_table_csv.hh"
#include "playback/outputs/proc_table_json.hh"
#include "playback/reports/rates.hh"
#include "playback/outputs/play_style.hh"
#include "tools/readers/clock_warning.hh"
#include "tools/output_buffer.hh"
#include "tools/readers/play_export.hh"
#include "tools/readers/reader_args.hh"
#include "tools/readers/recording_input.hh"
#include "tools/live/table_screen.hh"

namespace pm {
namespace {

using Item = RecordingReader::Item;

double Seconds(int64_t ns) { return static_cast<double>(ns) / 1e9; }

// The meta key the CSV's run column shows.
std::string RunKey(const PlayArgs& args) { return args.run_key.value_or("run"); }

// The table's user names: this machine's for its own recordings; another
// host's uids may name other users here, so they stay numbers.
UserNames UsersOf(const RecordingInfo& info) {
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0 || info.host != host) return {};
  return UserNames::Local();
}

void PrintMeta(const MetaList& meta) {
  for (const auto& [key, value] : meta)
    std::fprintf(stderr, "# meta: %s = %s\n", Printable(key).c_str(),
                 Printable(value).c_str());
}

// The walk over one recording: samples pair up within a segment; events
// end segments (pause, resume) or are reported (mark).
class Player {
 public:
  Player(const PlayArgs& args, RecordingInput& input)
      : args_(args),
        input_(input),
        out_(1),
        keys_(args.columns, input.info(), RunKey(args)) {
    report_options_.disk_only = args.disk_only ? &*args.disk_only : nullptr;
    report_options_.legacy = input.info().legacy();
    report_options_.recorded = &input.info().recorded;
    report_options_.info = &input.info();
    if (args.format == PlayFormat::kTable)
      table_.emplace(args.table_columns, UseColor(args.color, true, 1), 1,
                     input.info().interval_ns,
                     ProcBlock{args.top.value_or(kTableTop), UsersOf(input.info())});
    if (args.format == PlayFormat::kColumns) columns_.emplace(SpoolDir());
    if (keys_.lacks_run())
      std::fprintf(stderr, "warning: %s: no meta key '%s': the run column is empty\n",
                   input_.name().c_str(), Printable(RunKey(args)).c_str());
  }

  void Run() {
    RecordingEvent event;
    Item item = input_.Next(samples_[cur_], event);  // the origin known from here
    Begin();
    for (; item != Item::kEnd; item = input_.Next(samples_[cur_], event)) {
      if (item == Item::kEvent) OnEvent(event);
      else OnSample(samples_[cur_]);
    }
    if (table_) table_->Finish(out_.buffer());
    if (columns_) FinishColumns();
    out_.Flush();
    if (HostsMeet(args_)) WarnOfClock(input_.name(), clocks_);
    if (args_.proctable && !procs_.procs)
      std::fprintf(stderr, "warning: %s: no process table (record with --record-procs)\n",
                   input_.name().c_str());
    if (csv_.left_out() || (columns_ && columns_->left_out()))
      std::fprintf(stderr, "warning: %s: devices absent from the first line are not in "
                   "the CSV columns\n", input_.name().c_str());
  }

 private:
  // Every time in the output is measured from one origin: the recording's
  // first sample or event (PerfMonger's first sample, unless the recording
  // started paused), also in a window (RecordingInput::origin), on the
  // monotonic clock where recorded (TimeOrigin), so elapsed times never go
  // backwards.
  void SetOrigin(TimeOrigin origin) {
    if (have_origin_) return;
    origin_ = origin;
    have_origin_ = true;
  }

  // Once the first item is read: the origin, then what precedes the items.
  void Begin() {
    if (input_.origin()) SetOrigin(TimeOrigin::Of(*input_.origin()));
    if (args_.events && input_.info().clock) OnStart(*input_.info().clock);
    if (args_.proctable) AppendProcTableCsvHeader(out_.buffer());
  }

  void OnSample(const RawSample& cur) {
    if (have_prev_) OnPair(samples_[cur_ ^ 1], cur);
    have_prev_ = true;
    cur_ ^= 1;
  }

  // A step of the wall clock changes no rate (intervals are monotonic),
  // but `time` jumps: said once per step.
  void NoteWallStep(const RawSample& prev, const RawSample& cur) const {
    const int64_t step = WallStepNs(prev, cur);
    if (step > -kWallStepNs && step < kWallStepNs) return;
    std::fprintf(stderr,
                 "warning: %s: the wall clock stepped by %+.3f s before the sample at %.3f; "
                 "rates use the monotonic clock\n",
                 input_.name().c_str(), Seconds(step), Seconds(cur.time_ns));
  }

  void OnPair(const RawSample& prev, const RawSample& cur) {
    if (!Ordered(prev, cur)) return;
    NoteWallStep(prev, cur);
    const Pair pair(prev, cur, origin_, report_options_);
    if (columns_) {
      columns_->AppendRow(pair);
      return;
    }
    if (!WriteRow(pair, cur)) WriteJson(pair, cur);
  }

  // A sample not later than the one before: said, and the pair skipped.
  bool Ordered(const RawSample& prev, const RawSample& cur) const {
    if (IntervalNs(prev, cur) > 0) return true;
    std::fprintf(stderr,
                 "warning: %s: sample at %.3f is not later than the one "
                 "before (%.3f): pair skipped\n",
                 input_.name().c_str(), Seconds(cur.time_ns), Seconds(prev.time_ns));
    return false;
  }

  // The pair as a CSV row (of the samples or the process table) or a
  // table row; false when play writes JSON.
  bool WriteRow(const Pair& pair, const RawSample& cur) {
    if (args_.proctable) {
      if (const ProcTableEvent* procs = ProcsOf(cur))
        AppendProcTableCsvRows(out_.buffer(), *procs, cur.mono_ns, pair.time, pair.elapsed_time);
    } else if (args_.format == PlayFormat::kCsv) {
      csv_.AppendRow(out_.buffer(), pair);
    } else if (table_) {
      table_->OnPair(pair, ProcsOf(cur), out_.buffer());
    } else {
      return false;
    }
    out_.MaybeFlush();
    return true;
  }

  void WriteJson(const Pair& pair, const RawSample& cur) {
    if (styled()) {
      line_.clear();
      AppendPlayJson(line_, pair);
      AddProcs(line_, cur);
      Emit(line_);
      return;
    }
    std::string& out = out_.buffer();  // plain lines need no copy
    AppendPlayJson(out, pair);
    AddProcs(out, cur);
    out.push_back('\n');
    out_.MaybeFlush();
  }

  bool styled() const { return args_.pretty || color_; }

  // The process table written with `cur` (record --record-procs), or null.
  const ProcTableEvent* ProcsOf(const RawSample& cur) const {
    return procs_.procs && procs_.mono_ns == cur.mono_ns ? procs_.procs.get() : nullptr;
  }

  // The process table written with `cur`, into the object that ends `out`.
  void AddProcs(std::string& out, const RawSample& cur) {
    const ProcTableEvent* procs = ProcsOf(cur);
    if (!procs) return;
    out.pop_back();
    AppendProcTablePlay(out, *procs, cur.mono_ns);
    out.push_back('}');
  }

  // The start and the trailer are shown for the clock's state they carry:
  // a recording made before the clock was recorded plays as it always did.
  void OnEvent(const RecordingEvent& event) {
    if (event.kind == "procs") procs_ = event;  // for the sample that follows
    clocks_.OnEvent(event);
    bool pause = event.kind == "pause" || event.kind == "resume";
    if (pause) have_prev_ = false;  // no rate spans a pause
    bool mark = event.kind == "mark";
    if (mark) keys_.OnEvent(event);
    bool clocked = event.clock && (event.kind == "start" || event.kind == "end");
    if (!pause && !mark && !clocked) return;
    SetOrigin(TimeOrigin::Of(event));
    double elapsed = origin_.Elapsed(event);
    if (columns_) {
      line_.clear();
      AppendEventJson(line_, event, elapsed);
      columns_->AddEvent(line_);
    } else if (args_.events) {
      line_.clear();
      AppendEventJson(line_, event, elapsed);
      Emit(line_);
    } else if (mark) {
      std::fprintf(stderr, "# mark: %s at %.3f\n", Printable(event.label).c_str(),
                   elapsed);
    }
  }

  // The columns' header and arrays, once every row is in.
  // Into a regular file the kernel copies the arrays from the spool.
  void FinishColumns() {
    out_.buffer().append(columns_->Header(input_.info()));
    struct stat st {};
    if (fstat(1, &st) == 0 && S_ISREG(st.st_mode)) {
      out_.Flush();
      if (columns_->CopyColumns(1)) return;
    }
    columns_->WriteColumns([this](std::string_view bytes) {
      out_.buffer().append(bytes);
      out_.MaybeFlush();
    });
  }

  // The header's clock state, as an event at the start.
  void OnStart(const ClockState& clock) {
    RecordingEvent start;
    start.kind = "start";
    start.time_ns = input_.info().start_ns;
    start.clock = clock;
    OnEvent(start);
  }

  // {"event":KIND[,"label":L|"reason":R],"time":%.3f,"elapsed_time":%.3f
  //  [,"clock":STATE]}
  static void AppendEventJson(std::string& out, const RecordingEvent& event,
                              double elapsed) {
    JsonObjectWriter o(out);
    o.Str("event", event.kind);
    if (event.kind == "mark") o.Str("label", event.label);
    if (event.kind == "end") o.Str("reason", event.reason);
    AppendFixed(o.Key("time"), Seconds(event.time_ns), 3);
    AppendFixed(o.Key("elapsed_time"), elapsed, 3);
    if (event.clock) AppendClockJson(o.Key("clock"), *event.clock);
    o.Close();
  }

  // One compact JSON line out, styled as the rate lines are.
  void Emit(const std::string& json) {
    std::string& out = out_.buffer();
    if (styled()) AppendStyledPlayJson(out, json, {args_.pretty, color_});
    else out.append(json);
    out.push_back('\n');
    out_.MaybeFlush();
  }

  const PlayArgs& args_;
  RecordingInput& input_;
  OutputBuffer out_;
  ReportOptions report_options_;
  RawSample samples_[2];  // the previous and the current, by turns
  int cur_ = 0;
  bool have_prev_ = false;
  bool have_origin_ = false;
  TimeOrigin origin_;
  std::string line_;
  RecordingEvent procs_;  // the last "procs" line
  CsvKeys keys_;        // --format csv --columns
  CsvExport csv_{&keys_};
  bool color_ = UseColor(args_.color, false, 1);  // JSON's
  std::optional<TableScreen> table_;
  std::optional<ColumnsExport> columns_;  // --format columns
  ClockHistory clocks_{input_.info()};    // warned of where hosts meet
};

int Play(const PlayArgs& args) {
  if (args.format == PlayFormat::kColumns && isatty(1))
    throw UsageError("--format columns writes binary arrays: redirect standard output to a file or a pipe");
  RecordingInput input(args.files, {args.window});
  if (!input.Open()) {
    Note("play", input.name() + " is empty: nothing to play");
    return 0;
  }
  if (args.format != PlayFormat::kOpenMetrics) input.CheckMarksFirst();
  PrintMeta(input.info().meta);
  if (args.format == PlayFormat::kOpenMetrics) ExportOpenMetrics(args, input);
  else Player(args, input).Run();
  input.Finish();
  if (input.samples() == 0)
    Note("play", input.name() + " has no samples: nothing to play");
  else if (input.samples() == 1 && args.format != PlayFormat::kOpenMetrics)
    Note("play", input.name() + " has a single sample: a rate needs two");
  return input.ExitStatus();
}

}  // namespace

int PlayMain(int argc, char** argv) {
  return RunReaderCommand("play", [&]() {
    PlayArgs args = ParsePlayArgs(argc, argv);
    if (args.help) {
      std::fputs(PlayCommand().Usage().c_str(), stdout);
      return 0;
    }
    return Play(args);
  });
}

}  // namespace pm

// `perfmonger record`: one uv loop, one thread, every event source a small
// object owned here.
//
//   Setup()  validate fds and meta, open /proc, create the output
//            (any failure: a setup error, exit 1, nothing recorded)
//   Run()    [start delay] -> header + first sample, flushed -> ready line
//            -> a sample per tick -> on stop (stop fd EOF, SIGINT/SIGTERM,
//            timeout, the `stop` command) a final sample at that instant,
//            the end trailer, compressor finish, fsync, close. failure()
//            then says whether a collection error ended it (what was
//            flushed stays); tools/ maps that to an exit status. A failure
//            before the first flush (a full disk) removes the file and
//            throws SetupError.
//   Commands on --cmd-fd (recorder_commands.cc) pause, resume, mark, take
//   extra samples and report, each acknowledged on --ack-fd once its effect
//   is on disk.
//   Its state is one RecorderState (daemon/recorder_state.hh); every change
//   of it is a row of one table, kTransitions (recorder_states.cc).
//   `stat` and `live` (tools/) add hooks: a command started after the first
//   sample whose exit stops the recording; an observer of every line; a
//   stdout whose reader leaving stops it.
#pragma once

#include <uv.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

#include "common/unique_fd.hh"
#include "daemon/ack_sink.hh"
#include "daemon/child_source.hh"
#include "daemon/clock_probe.hh"
#include "daemon/cmd_source.hh"
#include "daemon/collect/process_table.hh"
#include "daemon/hangup_source.hh"
#include "daemon/loop_clock.hh"
#include "daemon/notify_socket.hh"
#include "daemon/collect/collector_set.hh"
#include "daemon/ready_fd.hh"
#include "daemon/recorder_state.hh"
#include "daemon/recording_observer.hh"
#include "daemon/record_config.hh"
#include "daemon/recording_writer.hh"
#include "daemon/rotation.hh"
#include "daemon/session_files.hh"
#include "daemon/signal_source.hh"
#include "daemon/stop_request.hh"
#include "daemon/stop_source.hh"
#include "daemon/timer_source.hh"
#include "proto/pgr_delta.hh"
#include "proto/pgr_format.hh"

namespace pm {

class EveryoneScan;  // daemon/everyone_scan.hh

class Recorder final : SignalSource::Handler,
                       TimerHandler,
                       StopSource::Handler,
                       CmdSource::Handler,
                       ChildSource::Handler,
                       StopRequest::Handler,
                       HangupSource::Handler,
                       AckSink::Handler {
 public:
  // Every instant and timer comes from `clock` (a test steps its own).
  explicit Recorder(Clock& clock = SystemClock());
  ~Recorder();
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  // Hooks for `stat` and `live` (tools/), set before Setup():
  // - every line written, also without a file (config.no_file), goes to
  //   `observer` too;
  void SetObserver(RecordingObserver& observer) { observer_ = &observer; }
  // - once the first sample is on disk, `spawn` starts the command and
  //   returns its pidfd (invalid: not started, the recording stops at
  //   once); SIGINT and SIGTERM are passed to it, and its exit stops the
  //   recording with a final sample.
  void SetChildSpawner(std::function<UniqueFd()> spawn) { spawn_child_ = std::move(spawn); }
  //   The spawner calls CommandStarted(pid) so that the command's own
  //   process row (config.collectors.command_process) follows it.
  void CommandStarted(int pid);
  // - the recording stops ("stdout-closed") when the reader of `fd` (a
  //   pipe or socket the observer writes to) goes away.
  void StopOnHangup(int fd) { hangup_fd_ = fd; }
  // Stops with a final sample on the loop's next turn; safe from the
  // observer. Needs an observer set.
  void RequestStop(std::string reason) noexcept;

  // Throws UsageError, SetupError or std::system_error: a setup error.
  void Setup(const RecordConfig& config);
  // Start(), then the loop until the recording is closed; throws
  // SetupError if nothing usable was ever written.
  void Run();

  // Run() in steps, for a test that drives a manual clock: Start() once,
  // then Poll() after each step to handle what is ready on the loop's fds.
  void Start();
  void Poll();
  RecorderState state() const { return state_; }
  bool stopped() const { return IsOver(state_); }
  uint64_t samples() const { return samples_; }

  const std::string& output_path() const { return output_path_; }
  const std::optional<std::string>& failure() const { return failure_; }

 private:
  // An instant of both clocks: a sample's, an event line's, a reply's.
  struct Instant {
    int64_t t = 0;
    int64_t mono = 0;
  };
  // Row `state`, column `event`: the state it moves to and what it does
  // on the way (null: nothing but the change), as s6-supervise's table.
  struct Transition {
    RecorderState next;
    void (Recorder::*action)(const Instant& at);
  };
  static const Transition kTransitions[kRecorderStates][kRecorderEvents];

  // The start delay's end, then the timeout: a handler of its own, so the
  // tick's (the Recorder's) is the tick's alone.
  class DeadlineHandler final : public TimerHandler {
   public:
    explicit DeadlineHandler(Recorder& r) : recorder_(r) {}
    void OnTimer(Timer&, uint64_t) noexcept override { recorder_.OnDeadline(); }
    void OnSourceError(const char* what, int err) noexcept override {
      recorder_.OnSourceError(what, err);
    }

   private:
    Recorder& recorder_;
  };

  void OnSignal(int signo) noexcept override;
  void OnTimer(Timer& tick, uint64_t expirations) noexcept override;
  void OnDeadline() noexcept;
  void OnStopFd() noexcept override;
  void OnSourceError(const char* what, int err) noexcept override;
  void OnCommand(const ParsedLine& line) noexcept override;
  void OnCmdEof() noexcept override {}
  void OnChildExit() noexcept override;
  void OnStopRequest() noexcept override;
  void OnHangup() noexcept override;
  void StartChild();
  void OnAckDrained() noexcept override;
  void Acknowledge(const std::string& reply) noexcept;

  void AdoptInheritedFds(const RecordConfig& config);
  Instant Now() { return {clock_.RealtimeNs(), clock_.MonoNs()}; }
  // Moves the state by its row in kTransitions. An action that throws
  // leaves the state it started from, which then fails (kFail): false.
  bool Fire(RecorderEvent event, const Instant& at) noexcept;
  void BeginRecording();
  void ArmTicks(int64_t origin_mono_ns);
  void OnTick(uint64_t expirations);
  // `tick`: the schedule's (the process table may skip it); every other
  // sample (the first, a mark's, a pause's, the stop's) scans it.
  void TakeSample(int64_t t_ns, int64_t mono_ns, bool tick = false);
  void BuildSample(int64_t t_ns, int64_t mono_ns, bool tick = false);  // into line_
  void WriteSample(int64_t mono_ns);                // line_, flushed

  // Rotation (recorder_rotation.cc, daemon/rotation.hh): one file per
  // period in output_dir_; the sample that ends a period is the last of
  // its file and, as a keyframe, the first of the next. A full disk
  // suspends writing (one error line) until a new file can be written.
  void OpenCollectors(const RecordConfig& config);
  void DescribeHost();
  void MakeEventSources();
  void OpenOutput(const RecordConfig& config);
  void SetupRotation(const RecordConfig& config);
  std::string FreePath(int64_t t_ns) const;
  void OpenFile(const std::string& path);
  void StartPeriod(const Instant& at);
  void RotatingTick(const Instant& at);
  bool RotationDue(const Instant& at) const;
  void Rotate(const Instant& at);
  void StartFile(const Instant& at);
  void Suspend(const std::system_error& error);
  void TryResume(const Instant& at);
  void DropFile() noexcept;  // the file cut at its last flush; no file
  // The scan of everyone else for the instant `of` (everyone_scan.hh).
  void ScanEveryone(std::string_view at, const Instant& of);

  // The actions of kTransitions (recorder_states.cc).
  void StartRecording(const Instant& at);
  void StartPaused(const Instant& at);
  void PauseNow(const Instant& at);
  void ResumeNow(const Instant& at);
  void CloseEmpty(const Instant& at);
  void CloseRecording(const Instant& at);
  void ClosePaused(const Instant& at);
  void Keep(const Instant& at);
  void Discard(const Instant& at);
  void StartClock(const Instant& at);
  void RefuseStartIfStopping() const;
  void WriteTrailer(const Instant& at);

  // Commands (recorder_commands.cc): each returns the reply line.
  std::string Execute(const ParsedLine& line);
  std::string Transit(const ParsedLine& line, RecorderEvent event);
  std::string Mark(const ParsedLine& line);
  std::string ExtraSample(const ParsedLine& line);
  std::string NamePid(const ParsedLine& line);
  // The phase ends at the last sample: the system under test's cost.
  SutCost ClosePhase();
  std::string Report(const ParsedLine& line, bool full);

  // A final sample (unless paused), the trailer naming `reason`, the file
  // closed; `reply`, if given, builds the acknowledgement then.
  void Stop(std::string_view reason, const std::function<std::string()>& reply = {}) noexcept;
  // The first failure's message is kept; `kept`: what was flushed survives
  // (not so when the output itself was lost).
  void Fail(const std::exception& error) noexcept;
  void Fail(std::string message, bool kept) noexcept;
  void CloseSources(bool keep_ready = false) noexcept;
  // Runs a step from a loop callback: an exception is a collection error
  // (false).
  template <typename F>
  bool Guarded(F&& step) noexcept {
    try {
      step();
      return true;
    } catch (const std::exception& e) {
      Fail(e);
      return false;
    }
  }

  Clock& clock_;
  uv_loop_t loop_;
  bool loop_initialized_ = false;
  int64_t interval_ns_ = 0;
  int64_t start_delay_ns_ = 0;
  int64_t timeout_ns_ = 0;
  std::string output_path_;
  RecordingHeader header_;
  std::unique_ptr<CollectorSet> collectors_;
  // with a system under test; by pointer, so that recorder.hh users do
  // not include the process scan (and the procs columns)
  std::unique_ptr<EveryoneScan> everyone_;
  std::optional<ProcessTable> table_;     // --record-procs
  std::optional<SutCost> closing_cost_;   // the last phase's, for stop's reply
  Instant started_;                       // StartClock's
  std::optional<Instant> mark_to_scan_;   // a mark replied to, its scan pending
  // The first sample's instant, then each mark's, on CLOCK_BOOTTIME: the
  // clock a process's start time counts on (named_processes.hh).
  int64_t phase_start_boot_ns_ = 0;
  std::optional<ClockProbe> clock_probe_;  // at the start, marks, the end
  std::optional<SessionLock> session_;  // before writer_: outlives the file
  std::unique_ptr<RecordingWriter> writer_;
  ReadyFd ready_;
  std::optional<NotifySocket> notify_;  // $NOTIFY_SOCKET: systemd Type=notify
  std::optional<SignalSource> signals_;
  std::unique_ptr<Timer> tick_;
  DeadlineHandler deadline_handler_{*this};
  std::unique_ptr<Timer> deadline_;  // start delay, then timeout, if any
  std::optional<StopSource> stop_;
  std::optional<CmdSource> cmd_;
  std::optional<AckSink> ack_;
  RecordingObserver* observer_ = nullptr;
  std::function<UniqueFd()> spawn_child_;
  std::optional<ChildSource> child_;
  std::optional<StopRequest> stop_request_;
  std::string requested_stop_reason_;
  std::optional<int> hangup_fd_;
  std::optional<HangupSource> hangup_;

  RotatePolicy rotate_;
  std::string output_dir_;          // rotation: where the files go
  Compression compression_ = Compression::kPlain;
  int64_t period_end_ns_ = 0;       // realtime: the next file's start
  bool reopen_ = false;             // SIGHUP: a new file at the next tick
  bool suspended_ = false;          // the disk was full: no file open
  uint64_t file_samples_ = 0;       // sample lines in the current file

  std::string procs_line_;  // the process table's, written before line_
  std::string line_;  // reused for every sample line
  std::optional<DeltaEncoder> delta_;  // format v2 only
  RecorderState state_ = RecorderState::kDelayed;
  std::string_view stop_reason_;  // the trailer's, once kStop fired
  bool failure_kept_ = false;     // the failure leaves what was flushed
  int64_t timeout_at_mono_ns_ = 0;  // fixed at the start; pauses do not move it
  int64_t schedule_origin_ns_ = 0;  // ticks fall at origin + k·interval
  uint64_t ticks_ = 0;              // since the origin
  uint64_t samples_ = 0;
  uint64_t missed_ticks_ = 0;
  int64_t last_sample_mono_ns_ = 0;  // of the last sample taken, any kind
  std::optional<std::string> failure_;
};

}  // namespace pm

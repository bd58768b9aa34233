#include "daemon/recorder.hh"

#include <fcntl.h>
#include <signal.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cassert>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "common/error.hh"
#include "common/io.hh"
#include "daemon/everyone_scan.hh"
#include "daemon/file_sink.hh"
#include "daemon/inherited_fd.hh"
#include "proto/meta.hh"
#include "proto/ready_event.hh"

namespace pm {
namespace {

// With a timeout, a scheduled sample this close to the deadline is the last
// one (PerfMonger: `-i 0.1 -t 3` gives 31 samples, not 32).
constexpr int64_t kTimeoutSlackNs = 10'000'000;

// How long a stopped recorder waits for its ack reader to take the replies
// still queued before it exits anyway.
constexpr int kAckDrainMs = 2000;

// The tree the collectors read (--root): a missing one is named as the
// option, not as the first /proc file that could not be found in it.
UniqueFd OpenRoot(const std::string& root) {
  try {
    return OpenAt(AT_FDCWD, root, O_PATH | O_DIRECTORY);
  } catch (const std::system_error& e) {
    throw SetupError("--root " + root + ": " + e.code().message() +
                     " (give the directory that holds the proc/ and sys/ trees)");
  }
}

InheritedFdSpec ReadyFdSpec(int fd) {
  return {"--ready-fd", fd, FdDirection::kWrite, false};
}

InheritedFdSpec StopFdSpec(int fd) {
  return {"--stop-fd", fd, FdDirection::kRead, true};
}

InheritedFdSpec CmdFdSpec(int fd) {
  return {"--cmd-fd", fd, FdDirection::kRead, true};
}

InheritedFdSpec AckFdSpec(int fd) {
  return {"--ack-fd", fd, FdDirection::kWrite, false};
}

// `-l -` writes the recording to fd 1: no other role may use it.
void CheckStdoutFree(const RecordConfig& config) {
  if (config.output != "-") return;
  for (const auto& [flag, fd] : {std::pair{"--ready-fd", config.ready_fd},
                                 std::pair{"--ack-fd", config.ack_fd}})
    if (fd == 1)
      throw UsageError(std::string("-l - writes the recording to stdout, and ") + flag +
                       "=1 names it too; pass the fd at 3 or above");
}

// The handles uv_loop_close found still open (UV_EBUSY), by type: one
// line, as the loop cannot be closed and the destructor cannot throw.
void ReportOpenHandles(uv_loop_t& loop, int closed) {
  std::string open;
  uv_walk(
      &loop,
      [](uv_handle_t* h, void* arg) {
        auto& names = *static_cast<std::string*>(arg);
        names += names.empty() ? "" : ", ";
        names += uv_handle_type_name(uv_handle_get_type(h));
      },
      &open);
  std::fprintf(stderr, "perfmonger record: internal error: the event loop closed with %s (%s)\n",
               open.empty() ? "no handle open" : ("open handles: " + open).c_str(),
               uv_err_name(closed));
}

}  // namespace

Recorder::Recorder(Clock& clock) : clock_(clock) {}

Recorder::~Recorder() {
  if (!loop_initialized_) return;
  CloseSources(false);
  uv_run(&loop_, UV_RUN_DEFAULT);  // runs the close callbacks
  // Every source is closed by now: UV_EBUSY would be a handle left open,
  // a bug named on stderr, which the tests' builds (asserts kept) stop at.
  int closed = uv_loop_close(&loop_);
  if (closed != 0) ReportOpenHandles(loop_, closed);
  assert(closed == 0);
}

// Before the recorder opens a single fd of its own: until then, an fd
// number the parent did not pass cannot be mistaken for one it did.
void Recorder::AdoptInheritedFds(const RecordConfig& config) {
  std::vector<InheritedFdSpec> specs;
  if (config.ready_fd) specs.push_back(ReadyFdSpec(*config.ready_fd));
  if (config.stop_fd) specs.push_back(StopFdSpec(*config.stop_fd));
  if (config.cmd_fd) specs.push_back(CmdFdSpec(*config.cmd_fd));
  if (config.ack_fd) specs.push_back(AckFdSpec(*config.ack_fd));
  CheckDistinctFds(specs);
  CheckAllOpen(specs);
  if (config.ready_fd) ready_ = ReadyFd(AdoptInheritedFd(ReadyFdSpec(*config.ready_fd)));
  UniqueFd stop_fd, cmd_fd, ack_fd;
  if (config.stop_fd) {
    stop_fd = AdoptInheritedFd(StopFdSpec(*config.stop_fd));
    CheckNoOwnWriter(StopFdSpec(*config.stop_fd));
  }
  if (config.cmd_fd) cmd_fd = AdoptInheritedFd(CmdFdSpec(*config.cmd_fd));
  if (config.ack_fd) ack_fd = AdoptInheritedFd(AckFdSpec(*config.ack_fd));
  EnsureStdioOpen();
  int rc = uv_loop_init(&loop_);
  if (rc != 0) throw SystemError("uv_loop_init", -rc);
  loop_initialized_ = true;
  if (stop_fd)
    stop_.emplace(loop_, static_cast<StopSource::Handler&>(*this),
                  std::move(stop_fd), "--stop-fd");
  if (cmd_fd)
    cmd_.emplace(loop_, static_cast<CmdSource::Handler&>(*this), std::move(cmd_fd),
                 "--cmd-fd");
  if (ack_fd)
    ack_.emplace(loop_, static_cast<AckSink::Handler&>(*this), std::move(ack_fd),
                 "--ack-fd");
}

void Recorder::Setup(const RecordConfig& config) {
  interval_ns_ = config.interval_ns;
  header_.version = config.format_version;
  if (config.format_version == kPgrDeltaVersion) delta_.emplace();
  start_delay_ns_ = config.start_delay_ns;
  timeout_ns_ = config.timeout_ns;
  if (config.start_paused) state_ = RecorderState::kDelayedPaused;

  CheckStdoutFree(config);
  AdoptInheritedFds(config);
  // Taken before any child can start, so none sees it.
  if (std::optional<std::string> address = TakeNotifySocket()) notify_.emplace(*address);
  header_.meta = ParseMetaArgs(config.meta_args);
  OpenCollectors(config);
  DescribeHost();
  MakeEventSources();
  OpenOutput(config);
  writer_->SetObserver(observer_);
}

// The collectors, the process scans and the clock probe, on --root's /proc.
void Recorder::OpenCollectors(const RecordConfig& config) {
  UniqueFd root = OpenRoot(config.root);
  collectors_ = std::make_unique<CollectorSet>(root.Get(), config.collectors);
  if (config.collectors.on("procs") || config.collectors.on("cgroups"))
    everyone_ = std::make_unique<EveryoneScan>(root.Get(), config.collectors.values_of("procs"));
  if (config.process_table) table_.emplace(root.Get(), interval_ns_, clock_.MonoNs());
  clock_probe_.emplace(root.Get());
}

// The header's host, kernel and what the collectors record.
void Recorder::DescribeHost() {
  struct utsname uts;
  uname(&uts);
  header_.host = uts.nodename;
  header_.kernel = uts.release;
  header_.interval_ns = interval_ns_;
  header_.num_core = collectors_->num_core();
  header_.pid = static_cast<int>(getpid());
  header_.collectors_json = collectors_->DescribeJson();
  if (table_) {  // beside the collectors: readers skip a member they do not know
    header_.collectors_json.pop_back();
    table_->Describe(header_.collectors_json);
    header_.collectors_json.push_back('}');
  }
}

// Signals, the tick, the deadline and the stop and hangup sources.
void Recorder::MakeEventSources() {
  signals_.emplace(loop_, static_cast<SignalSource::Handler&>(*this));
  tick_ = clock_.MakeTimer(loop_, static_cast<TimerHandler&>(*this));
  if (start_delay_ns_ > 0 || timeout_ns_ > 0)  // a harness usually needs neither
    deadline_ = clock_.MakeTimer(loop_, deadline_handler_);

  if (observer_)
    stop_request_.emplace(loop_, static_cast<StopRequest::Handler&>(*this));
  if (hangup_fd_)
    hangup_.emplace(loop_, static_cast<HangupSource::Handler&>(*this), *hangup_fd_);
}

// The writer: rotated files, none (--no-file) or -l's file.
void Recorder::OpenOutput(const RecordConfig& config) {
  if (config.rotate.on()) {
    SetupRotation(config);
    return;
  }
  if (config.no_file) {
    writer_ = std::make_unique<RecordingWriter>();
    return;
  }
  RequireOutputPath(config.output);
  output_path_ = config.output == "-" ? config.output : AbsolutePath(config.output);
  if (config.session) session_.emplace(DefaultSessionPaths(), output_path_);
  Compression compression =
      config.no_gzip ? Compression::kPlain : CompressionForPath(output_path_);
  try {
    writer_ = std::make_unique<RecordingWriter>(output_path_, compression);
  } catch (const std::system_error& e) {
    throw SetupError("cannot create " + output_path_ + ": " + e.code().message() +
                     " (create its directory or pass another -l PATH)");
  }
}

void Recorder::Start() {
  if (start_delay_ns_ > 0)
    Guarded([&] { deadline_->Arm(clock_.MonoNs() + start_delay_ns_, 0); });
  else
    BeginRecording();
}

void Recorder::Poll() { uv_run(&loop_, UV_RUN_NOWAIT); }

void Recorder::Run() {
  Start();
  uv_run(&loop_, UV_RUN_DEFAULT);
  // Nothing usable was made (embedding.md §5): a setup error, file removed.
  if (state_ == RecorderState::kDiscarded) throw SetupError(*failure_);
}

// The header (and the first sample, or the pause event) on disk, the
// driver is told the state it starts in (with a command fd) and `stat`'s
// command is started.
void Recorder::BeginRecording() {
  if (!Fire(RecorderEvent::kStart, Now())) return;
  Guarded([&] {
    ready_.SendAndClose(EncodeReadyLine(header_.pid, output_path_, header_.start_ns,
                                        cmd_ ? ReplyStateName(state_) : std::string_view()));
    if (notify_) notify_->Send("READY=1");
    ScanEveryone("start", started_);
    if (spawn_child_) StartChild();
  });
}

// After the first sample is on disk: the recording brackets the command.
void Recorder::StartChild() {
  UniqueFd pidfd = spawn_child_();
  if (!pidfd) return Stop("command-not-started");
  child_.emplace(loop_, static_cast<ChildSource::Handler&>(*this), std::move(pidfd));
}

void Recorder::ArmTicks(int64_t origin_mono_ns) {
  schedule_origin_ns_ = origin_mono_ns;
  ticks_ = 0;
  tick_->Arm(origin_mono_ns + interval_ns_, interval_ns_);
}

void Recorder::CommandStarted(int pid) {
  if (collectors_) collectors_->BindCommand(pid);
  if (everyone_) everyone_->AddSut(pid);
}

void Recorder::ScanEveryone(std::string_view at, const Instant& of) {
  if (!everyone_) return;
  const Instant now = Now();
  writer_->WriteAndFlushLine(everyone_->Line(at, now.t, now.mono, now.mono - of.mono));
}

void Recorder::BuildSample(int64_t t_ns, int64_t mono_ns, bool tick) {
  line_.clear();
  BeginSampleLine(line_, t_ns, mono_ns);
  collectors_->AppendSample(line_);
  if (everyone_) everyone_->named().Read();
  EndLine(line_);
  if (table_) procs_line_ = table_->Line(t_ns, mono_ns, tick);
  ++samples_;
  last_sample_mono_ns_ = mono_ns;
}

// The process table first (pgr(5)): a reader has it when the sample comes;
// one flush for both. Written once: a sample written again at the start of
// a rotated file is the table's baseline there.
void Recorder::WriteSample(int64_t mono_ns) {
  if (!procs_line_.empty()) writer_->Write(procs_line_);
  procs_line_.clear();
  writer_->WriteAndFlushLine(delta_ ? delta_->Encode(line_, mono_ns) : line_);
  ++file_samples_;
}

void Recorder::TakeSample(int64_t t_ns, int64_t mono_ns, bool tick) {
  BuildSample(t_ns, mono_ns, tick);
  WriteSample(mono_ns);
}

// The tick at or past the timeout is the stop's: its final sample is
// this tick's. A tick less than half an interval after the last sample (a
// late wake-up's, or one that follows a mark's sample) is counted as
// missed rather than taken: no accidental near-duplicate pair, and the
// grid goes on.
void Recorder::OnTick(uint64_t expirations) {
  missed_ticks_ += expirations - 1;
  ticks_ += expirations;
  int64_t scheduled = schedule_origin_ns_ + static_cast<int64_t>(ticks_) * interval_ns_;
  if (timeout_ns_ > 0 && scheduled >= timeout_at_mono_ns_ - kTimeoutSlackNs)
    return Stop("timeout");
  const int64_t mono = clock_.MonoNs();
  if (samples_ > 0 && mono - last_sample_mono_ns_ < interval_ns_ / 2) {
    ++missed_ticks_;
    return;
  }
  if (rotate_.on()) return RotatingTick({clock_.RealtimeNs(), mono});
  TakeSample(clock_.RealtimeNs(), mono, true);
}

// Only a recording ticks: pausing disarms the tick.
void Recorder::OnTimer(Timer&, uint64_t expirations) noexcept {
  if (state_ != RecorderState::kRecording) return;
  Guarded([&] { OnTick(expirations); });
}

void Recorder::OnDeadline() noexcept {
  if (IsDelayed(state_)) return BeginRecording();
  Stop("timeout");
}

void Recorder::OnSignal(int signo) noexcept {
  // `stat`: the command decides; its exit stops the recording.
  if (child_) return child_->Signal(signo);
  if (signo == SIGHUP && rotate_.on()) {  // logrotate moved the file: reopen
    reopen_ = true;
    return;
  }
  Stop(SignalSource::Name(signo));
}

void Recorder::OnStopFd() noexcept { Stop("stop-fd"); }

void Recorder::OnChildExit() noexcept { Stop("command-exit"); }

void Recorder::RequestStop(std::string reason) noexcept {
  if (stopped() || !stop_request_ || !requested_stop_reason_.empty()) return;
  requested_stop_reason_ = std::move(reason);
  stop_request_->Request();
}

void Recorder::OnStopRequest() noexcept { Stop(requested_stop_reason_); }

void Recorder::OnHangup() noexcept { Stop("stdout-closed"); }

void Recorder::OnSourceError(const char* what, int err) noexcept {
  Fail(std::string(what) + ": " + std::strerror(err), true);
}

// A failure on the way has closed the sources already, by its own rule.
void Recorder::Stop(std::string_view reason,
                    const std::function<std::string()>& reply) noexcept {
  if (stopped()) return;
  if (notify_) notify_->Send("STOPPING=1");
  stop_reason_ = reason;
  if (!Fire(RecorderEvent::kStop, Now())) return;
  if (reply && !Guarded([&] { Acknowledge(reply()); })) return;
  CloseSources();
}

void Recorder::Fail(const std::exception& error) noexcept {
  bool lost = dynamic_cast<const OutputLost*>(&error) != nullptr;
  Fail(error.what(), !lost);
}

// The first failure names the recording's end; the table says whether
// what was flushed is kept (Keep) or nothing usable was made (Discard).
void Recorder::Fail(std::string message, bool kept) noexcept {
  if (!failure_) {
    failure_ = std::move(message);
    failure_kept_ = kept;
  }
  Fire(RecorderEvent::kFail, {});  // no instant: nothing more is written
}

void Recorder::CloseSources(bool keep_ready) noexcept {
  if (!keep_ready) ready_.Close();
  if (signals_) signals_->Close();
  if (tick_) tick_->Close();
  if (deadline_) deadline_->Close();
  if (stop_) stop_->Close();
  if (cmd_) cmd_->Close();
  // The last replies (the stop command's) still reach a live reader.
  if (ack_) ack_->DrainAndClose(kAckDrainMs);
  if (child_) child_->Close();
  if (stop_request_) stop_request_->Close();
  if (hangup_) hangup_->Close();
}

}  // namespace pm

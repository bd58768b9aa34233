#include "daemon/recorder.hh"

#include <fcntl.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "common/error.hh"
#include "common/io.hh"
#include "daemon/clock.hh"
#include "daemon/inherited_fd.hh"
#include "daemon/sched_hint.hh"
#include "proto/meta.hh"
#include "proto/ready_event.hh"

namespace pm {
namespace {

// With a timeout, a scheduled sample this close to the deadline is the last
// one (PerfMonger: `-i 0.1 -t 3` gives 31 samples, not 32).
constexpr int64_t kTimeoutSlackNs = 10'000'000;

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

}  // namespace

Recorder::Recorder() = default;

Recorder::~Recorder() {
  if (!loop_initialized_) return;
  CloseSources();
  uv_run(&loop_, UV_RUN_DEFAULT);  // runs the close callbacks
  uv_loop_close(&loop_);
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
  if (config.ready_fd) ready_ = ReadyFd(AdoptInheritedFd(ReadyFdSpec(*config.ready_fd)));
  UniqueFd stop_fd, cmd_fd, ack_fd;
  if (config.stop_fd) stop_fd = AdoptInheritedFd(StopFdSpec(*config.stop_fd));
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
  if (ack_fd) ack_.emplace(loop_, std::move(ack_fd), "--ack-fd");
}

void Recorder::Setup(const RecordConfig& config) {
  interval_ns_ = config.interval_ns;
  start_delay_ns_ = config.start_delay_ns;
  timeout_ns_ = config.timeout_ns;
  start_paused_ = config.start_paused;

  AdoptInheritedFds(config);
  header_.meta = ParseMetaArgs(config.meta_args);

  UniqueFd root = OpenAt(AT_FDCWD, config.root, O_PATH | O_DIRECTORY);
  collectors_ = std::make_unique<CollectorSet>(root.Get(), config.collectors);
  struct utsname uts;
  uname(&uts);
  header_.host = uts.nodename;
  header_.kernel = uts.release;
  header_.interval_ns = interval_ns_;
  header_.num_core = collectors_->num_core();
  header_.pid = static_cast<int>(getpid());
  header_.collectors_json = collectors_->DescribeJson();

  signals_.emplace(loop_, static_cast<SignalSource::Handler&>(*this));
  tick_.emplace(loop_, static_cast<TimerSource::Handler&>(*this));
  if (start_delay_ns_ > 0 || timeout_ns_ > 0)  // a harness usually needs neither
    deadline_.emplace(loop_, static_cast<TimerSource::Handler&>(*this));

  output_path_ = AbsolutePath(config.output);
  if (config.session) session_.emplace(DefaultSessionPaths(), output_path_);
  Compression compression =
      config.no_gzip ? Compression::kPlain : CompressionForPath(output_path_);
  try {
    writer_ = std::make_unique<RecordingWriter>(output_path_, compression);
  } catch (const std::system_error& e) {
    throw SetupError("cannot create " + output_path_ + ": " +
                     e.code().message() +
                     " (create its directory or pass another -l PATH)");
  }
}

void Recorder::Run() {
  if (start_delay_ns_ > 0)
    Guarded([&] { deadline_->Arm(NowMonoNs() + start_delay_ns_, 0); });
  else
    Guarded([&] { StartSampling(); });
  uv_run(&loop_, UV_RUN_DEFAULT);
}

void Recorder::StartSampling() {
  started_ = true;
  RequestShortSlices();
  int64_t t = NowRealtimeNs();
  int64_t mono = NowMonoNs();
  header_.start_ns = t;
  if (timeout_ns_ > 0) {
    timeout_at_mono_ns_ = mono + timeout_ns_;
    deadline_->Arm(timeout_at_mono_ns_, 0);
  }
  if (start_paused_) {
    paused_ = true;
    writer_->WriteLine(EncodeHeaderLine(header_));
  } else {
    writer_->Write(EncodeHeaderLine(header_));
    TakeSample(t, mono);
    ArmTicks(mono);
  }
  // With a command fd, the driver learns the state it starts in.
  ready_.SendAndClose(EncodeReadyLine(header_.pid, output_path_, t,
                                      cmd_ ? state() : std::string_view()));
}

void Recorder::ArmTicks(int64_t origin_mono_ns) {
  schedule_origin_ns_ = origin_mono_ns;
  ticks_ = 0;
  tick_->Arm(origin_mono_ns + interval_ns_, interval_ns_);
}

void Recorder::TakeSample(int64_t t_ns, int64_t mono_ns) {
  line_.clear();
  BeginSampleLine(line_, t_ns, mono_ns);
  collectors_->AppendSample(line_);
  EndLine(line_);
  writer_->WriteLine(line_);
  ++samples_;
}

void Recorder::OnTick(uint64_t expirations) {
  missed_ticks_ += expirations - 1;
  ticks_ += expirations;
  TakeSample(NowRealtimeNs(), NowMonoNs());
  int64_t scheduled = schedule_origin_ns_ + static_cast<int64_t>(ticks_) * interval_ns_;
  if (timeout_ns_ > 0 && scheduled >= timeout_at_mono_ns_ - kTimeoutSlackNs)
    Stop("timeout", false);
}

void Recorder::OnTimer(TimerSource& timer, uint64_t expirations) noexcept {
  if (stopped_) return;
  if (&timer == &*tick_) return Guarded([&] { OnTick(expirations); });
  if (!started_) return Guarded([&] { StartSampling(); });
  Stop("timeout", true);
}

void Recorder::OnSignal(int signo) noexcept {
  Stop(signo == SIGINT ? "SIGINT" : "SIGTERM", true);
}

void Recorder::OnStopFd() noexcept { Stop("stop-fd", true); }

void Recorder::OnSourceError(const char* what, int err) noexcept {
  Fail(std::string(what) + ": " + std::strerror(err));
}

void Recorder::Stop(std::string_view reason, bool final_sample,
                    const std::function<std::string()>& reply) noexcept {
  if (stopped_) return;
  stopped_ = true;
  try {
    Finish(reason, final_sample && !paused_);
    if (ack_ && reply) ack_->Send(reply());
  } catch (const std::exception& e) {
    Fail(e.what());
  }
  CloseSources();
}

void Recorder::Finish(std::string_view reason, bool final_sample) {
  int64_t t = NowRealtimeNs();
  int64_t mono = NowMonoNs();
  if (!started_) {  // stopped during --start-delay: an empty recording
    header_.start_ns = t;
    writer_->Write(EncodeHeaderLine(header_));
  } else if (final_sample) {
    TakeSample(t, mono);
  }
  writer_->Write(EncodeEndLine({.t_ns = t, .mono_ns = mono, .reason = reason,
                                .samples = samples_,
                                .missed_ticks = missed_ticks_}));
  writer_->Finish();
}

void Recorder::Fail(std::string message) noexcept {
  if (!failure_) {
    failure_ = std::move(message);
    if (started_)
      *failure_ += "; the " + std::to_string(samples_) +
                   " samples written before it are kept";
  }
  stopped_ = true;
  if (writer_) writer_->Abandon();
  CloseSources();
}

void Recorder::CloseSources() noexcept {
  ready_.Close();
  if (signals_) signals_->Close();
  if (tick_) tick_->Close();
  if (deadline_) deadline_->Close();
  if (stop_) stop_->Close();
  if (cmd_) cmd_->Close();
  if (ack_) ack_->Close();
}

}  // namespace pm

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
//            flushed stays); tools/ maps that to an exit status.
//   Commands on --cmd-fd (recorder_commands.cc) pause, resume, mark, take
//   extra samples and report, each acknowledged on --ack-fd once its effect
//   is on disk.
#pragma once

#include <uv.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "common/unique_fd.hh"
#include "daemon/ack_sink.hh"
#include "daemon/cmd_source.hh"
#include "daemon/collect/collector_set.hh"
#include "daemon/ready_fd.hh"
#include "daemon/record_config.hh"
#include "daemon/recording_writer.hh"
#include "daemon/session_files.hh"
#include "daemon/signal_source.hh"
#include "daemon/stop_source.hh"
#include "daemon/timer_source.hh"
#include "proto/pgr_format.hh"

namespace pm {

class Recorder final : SignalSource::Handler,
                       TimerSource::Handler,
                       StopSource::Handler,
                       CmdSource::Handler {
 public:
  Recorder();
  ~Recorder();
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  // Throws UsageError, SetupError or std::system_error: a setup error.
  void Setup(const RecordConfig& config);
  void Run();

  const std::string& output_path() const { return output_path_; }
  const std::optional<std::string>& failure() const { return failure_; }

 private:
  void OnSignal(int signo) noexcept override;
  void OnTimer(TimerSource& timer, uint64_t expirations) noexcept override;
  void OnStopFd() noexcept override;
  void OnSourceError(const char* what, int err) noexcept override;
  void OnCommand(const ParsedLine& line) noexcept override;
  void OnCmdEof() noexcept override {}

  void AdoptInheritedFds(const RecordConfig& config);
  void StartSampling();
  void ArmTicks(int64_t origin_mono_ns);
  void OnTick(uint64_t expirations);
  void TakeSample(int64_t t_ns, int64_t mono_ns);
  std::string_view state() const { return paused_ ? "paused" : "recording"; }

  // Commands (recorder_commands.cc): each returns the reply line.
  std::string Execute(const ParsedLine& line);
  std::string Pause(const ParsedLine& line);
  std::string Resume(const ParsedLine& line);
  std::string Mark(const ParsedLine& line);
  std::string ExtraSample(const ParsedLine& line);
  std::string Report(const ParsedLine& line, bool full);

  // `reply`, if given, builds the acknowledgement once the file is closed.
  void Stop(std::string_view reason, bool final_sample,
            const std::function<std::string()>& reply = {}) noexcept;
  void Finish(std::string_view reason, bool final_sample);
  void Fail(std::string message) noexcept;
  void CloseSources() noexcept;
  // Runs a step from a loop callback: an exception is a collection error.
  template <typename F>
  void Guarded(F&& step) noexcept {
    try {
      step();
    } catch (const std::exception& e) {
      Fail(e.what());
    }
  }

  uv_loop_t loop_;
  bool loop_initialized_ = false;
  int64_t interval_ns_ = 0;
  int64_t start_delay_ns_ = 0;
  int64_t timeout_ns_ = 0;
  std::string output_path_;
  RecordingHeader header_;
  std::unique_ptr<CollectorSet> collectors_;
  std::optional<SessionLock> session_;  // before writer_: outlives the file
  std::unique_ptr<RecordingWriter> writer_;
  ReadyFd ready_;
  std::optional<SignalSource> signals_;
  std::optional<TimerSource> tick_;
  std::optional<TimerSource> deadline_;  // start delay, then timeout, if any
  std::optional<StopSource> stop_;
  std::optional<CmdSource> cmd_;
  std::optional<AckSink> ack_;

  std::string line_;  // reused for every sample line
  bool started_ = false;
  bool stopped_ = false;
  bool start_paused_ = false;
  bool paused_ = false;
  int64_t timeout_at_mono_ns_ = 0;  // fixed at the start; pauses do not move it
  int64_t schedule_origin_ns_ = 0;  // ticks fall at origin + k·interval
  uint64_t ticks_ = 0;              // since the origin
  uint64_t samples_ = 0;
  uint64_t missed_ticks_ = 0;
  std::optional<std::string> failure_;
};

}  // namespace pm

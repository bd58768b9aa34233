// `perfmonger record`: one uv loop, one thread, every event source a small
// object owned here.
//
//   Setup()  validate fds and meta, open /proc, create the output
//            (any failure: a setup error, exit 1, nothing recorded)
//   Run()    [start delay] -> header + first sample, flushed -> ready line
//            -> a sample per tick -> on stop (stop fd EOF, SIGINT/SIGTERM,
//            timeout) a final sample at that instant, the end trailer,
//            compressor finish, fsync, close. Returns 0, or 2 after a
//            collection error (failure() says what; what was flushed stays).
#pragma once

#include <uv.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "common/unique_fd.hh"
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
                       StopSource::Handler {
 public:
  Recorder();
  ~Recorder();
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  // Throws UsageError or std::system_error: a setup error.
  void Setup(const RecordConfig& config);
  int Run();

  const std::string& output_path() const { return output_path_; }
  const std::optional<std::string>& failure() const { return failure_; }

 private:
  void OnSignal(int signo) noexcept override;
  void OnTimer(TimerSource& timer, uint64_t expirations) noexcept override;
  void OnStopFd() noexcept override;
  void OnSourceError(const char* what, int err) noexcept override;

  void AdoptInheritedFds(const RecordConfig& config);
  void StartSampling();
  void OnTick(uint64_t expirations);
  void TakeSample(int64_t t_ns, int64_t mono_ns);
  void Stop(std::string_view reason, bool final_sample) noexcept;
  void Finish(std::string_view reason, bool final_sample);
  void Fail(std::string message) noexcept;
  void CloseSources() noexcept;
  template <typename F> void Guarded(F&& step) noexcept;

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

  std::string line_;  // reused for every sample line
  bool started_ = false;
  bool stopped_ = false;
  int64_t first_mono_ns_ = 0;
  uint64_t ticks_ = 0;
  uint64_t samples_ = 0;
  uint64_t missed_ticks_ = 0;
  int exit_code_ = 0;
  std::optional<std::string> failure_;
};

}  // namespace pm

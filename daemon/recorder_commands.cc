// The Recorder's answers to --cmd-fd commands (DESIGN.md §5). Each effect is
// on disk (flushed) before its reply is built; the reply carries the state,
// the sample count and the instant of the effect.
#include <optional>
#include <string>
#include <utility>

#include "common/clock.hh"
#include "daemon/recorder.hh"
#include "daemon/everyone_scan.hh"
#include "proto/control_reply.hh"

namespace pm {
namespace {

constexpr uint64_t kMaxPid = 1 << 22;  // PID_MAX_LIMIT on 64-bit Linux

ReplyFields Fields(std::string_view state, uint64_t samples) {
  ReplyFields f;
  f.state = state;
  f.samples = samples;
  return f;
}

ReplyFields Effect(std::string_view state, uint64_t samples, int64_t t_ns, int64_t mono_ns,
                   std::optional<bool> changed = std::nullopt) {
  ReplyFields f = Fields(state, samples);
  f.changed = changed;
  f.t_ns = t_ns;
  f.mono_ns = mono_ns;
  return f;
}

}  // namespace

void Recorder::OnCommand(const ParsedLine& line) noexcept {
  if (stopped()) return;
  if (!line.error.empty()) return Acknowledge(EncodeErrorReply(line.seq, line.cmd, line.error));
  if (line.verb == Verb::kStop) {
    // Built once the file is closed: the count includes the final sample.
    Stop("stop-cmd", [&] {
      ReplyFields f = Fields("stopped", samples_);
      f.cost = closing_cost_;
      return EncodeOkReply(line.seq, line.cmd, f);
    });
    return;
  }
  std::string reply;
  Guarded([&] { reply = Execute(line); });
  if (reply.empty()) return;
  Acknowledge(reply);
  // Everyone else, once the caller has its reply (the scan's lag is said).
  if (std::optional<Instant> mark = std::exchange(mark_to_scan_, std::nullopt))
    Guarded([&] { ScanEveryone("mark", *mark); });
}

// A full ack fd is back-pressure: no more commands are read until the
// replies have drained, so none is dropped and the queue stays bounded.
void Recorder::Acknowledge(const std::string& reply) noexcept {
  if (!ack_) return;
  ack_->Send(reply);
  if (ack_->backlogged() && cmd_) cmd_->Pause();
}

void Recorder::OnAckDrained() noexcept {
  if (cmd_) cmd_->Resume();
}

std::string Recorder::Execute(const ParsedLine& line) {
  switch (line.verb) {
    case Verb::kPause: return Transit(line, RecorderEvent::kPause);
    case Verb::kResume: return Transit(line, RecorderEvent::kResume);
    case Verb::kMark: return Mark(line);
    case Verb::kSample: return ExtraSample(line);
    case Verb::kStatus: return Report(line, true);
    case Verb::kPid: return NamePid(line);
    default: return Report(line, false);  // ping
  }
}

// Pause and resume are the table's (recorder_states.cc): "changed" says
// whether the state moved. During --start-delay they choose the state the
// recording starts in, and happen at no instant of the recording. A
// failure (the closing sample, say) ends the recording: no reply.
std::string Recorder::Transit(const ParsedLine& line, RecorderEvent event) {
  RecorderState from = state_;
  Instant now = Now();
  if (!Fire(event, now)) return {};
  bool changed = state_ != from;
  if (IsDelayed(state_)) {
    ReplyFields f = Fields(ReplyStateName(state_), samples_);
    f.changed = changed;
    return EncodeOkReply(line.seq, line.cmd, f);
  }
  return EncodeOkReply(line.seq, line.cmd,
                       Effect(ReplyStateName(state_), samples_, now.t, now.mono, changed));
}

// A sample at that instant (none while paused), then the mark event with
// the clock's state.
// During --start-delay nothing is on disk yet, and a reply must be true:
// it cannot be written, so it is refused.
std::string Recorder::Mark(const ParsedLine& line) {
  if (IsDelayed(state_)) return EncodeErrorReply(line.seq, line.cmd, "not_started");
  Instant now = Now();
  const int64_t boot_ns = NowNs(CLOCK_BOOTTIME);
  if (state_ == RecorderState::kRecording) TakeSample(now.t, now.mono);
  SutCost cost = ClosePhase();
  phase_start_boot_ns_ = boot_ns;
  ClockState clock = clock_probe_->Read();
  writer_->WriteAndFlushLine(EncodeEventLine("mark", now.t, now.mono, line.arg, &clock));
  mark_to_scan_ = now;
  ReplyFields f = Effect(ReplyStateName(state_), samples_, now.t, now.mono);
  f.cost = cost;
  return EncodeOkReply(line.seq, line.cmd, f);
}

// One extra sample now; while paused nothing is sampled ("changed":false).
std::string Recorder::ExtraSample(const ParsedLine& line) {
  if (IsDelayed(state_)) return EncodeErrorReply(line.seq, line.cmd, "not_started");
  Instant now = Now();
  bool sampled = state_ == RecorderState::kRecording;
  if (sampled) TakeSample(now.t, now.mono);
  return EncodeOkReply(line.seq, line.cmd,
                       Effect(ReplyStateName(state_), samples_, now.t, now.mono, sampled));
}

SutCost Recorder::ClosePhase() {
  SutCost cost = collectors_->ClosePhase();
  if (everyone_) everyone_->named().ClosePhase(cost);
  return cost;
}

// A process counted with the system under test from now on (a parallel
// worker); read at once. Needs a system under test (its scans carry it).
std::string Recorder::NamePid(const ParsedLine& line) {
  if (IsDelayed(state_)) return EncodeErrorReply(line.seq, line.cmd, "not_started");
  if (!everyone_) return EncodeErrorReply(line.seq, line.cmd, "no_system_under_test");
  const uint64_t pid = std::stoull(line.arg);  // 1 to 10 digits (control_protocol.hh)
  if (pid > kMaxPid) return EncodeErrorReply(line.seq, line.cmd, "no_such_process");
  bool known = everyone_->IsSut(line.arg) || everyone_->named().Has(static_cast<uint32_t>(pid));
  if (!known) {
    std::string_view error =
        everyone_->named().Name(static_cast<uint32_t>(pid), phase_start_boot_ns_);
    if (!error.empty()) return EncodeErrorReply(line.seq, line.cmd, error);
  }
  ReplyFields f = Fields(ReplyStateName(state_), samples_);
  f.changed = !known;
  return EncodeOkReply(line.seq, line.cmd, f);
}

std::string Recorder::Report(const ParsedLine& line, bool full) {
  ReplyFields f = Fields(ReplyStateName(state_), samples_);
  if (full && !IsDelayed(state_)) {
    f.missed_ticks = missed_ticks_;
    f.bytes_out = writer_->bytes_written();
  }
  return EncodeOkReply(line.seq, line.cmd, f);
}

}  // namespace pm

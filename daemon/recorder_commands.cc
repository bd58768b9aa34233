// The Recorder's answers to --cmd-fd commands (DESIGN.md §5). Each effect is
// on disk (flushed) before its reply is built; the reply carries the state,
// the sample count and the instant of the effect.
#include <optional>
#include <string>

#include "daemon/recorder.hh"
#include "proto/control_reply.hh"

namespace pm {
namespace {

struct Instant {
  explicit Instant(Clock& clock) : t(clock.RealtimeNs()), mono(clock.MonoNs()) {}
  int64_t t;
  int64_t mono;
};

ReplyFields Fields(std::string_view state, uint64_t samples) {
  ReplyFields f;
  f.state = state;
  f.samples = samples;
  return f;
}

ReplyFields Effect(std::string_view state, uint64_t samples, const Instant& at,
                   std::optional<bool> changed = std::nullopt) {
  ReplyFields f = Fields(state, samples);
  f.changed = changed;
  f.t_ns = at.t;
  f.mono_ns = at.mono;
  return f;
}

}  // namespace

void Recorder::OnCommand(const ParsedLine& line) noexcept {
  if (stopped_) return;
  if (!line.error.empty()) return Acknowledge(EncodeErrorReply(line.seq, line.cmd, line.error));
  if (line.verb == Verb::kStop) {
    // Built once the file is closed: the count includes the final sample.
    Stop("stop-cmd", true, [&] {
      return EncodeOkReply(line.seq, line.cmd, Fields("stopped", samples_));
    });
    return;
  }
  std::string reply;
  Guarded([&] { reply = Execute(line); });
  if (!reply.empty()) Acknowledge(reply);
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
  if (!started_) return ExecuteDelayed(line);
  switch (line.verb) {
    case Verb::kPause: return Pause(line);
    case Verb::kResume: return Resume(line);
    case Verb::kMark: return Mark(line);
    case Verb::kSample: return ExtraSample(line);
    case Verb::kStatus: return Report(line, true);
    default: return Report(line, false);  // ping
  }
}

// During --start-delay nothing is on disk yet. A reply must be true: a
// mark or sample cannot be written, so it is refused; pause and resume
// choose the state the recording will start in.
std::string Recorder::ExecuteDelayed(const ParsedLine& line) {
  switch (line.verb) {
    case Verb::kMark:
    case Verb::kSample: return EncodeErrorReply(line.seq, line.cmd, "not_started");
    case Verb::kPause:
    case Verb::kResume: {
      bool paused = line.verb == Verb::kPause;
      bool changed = start_paused_ != paused;
      start_paused_ = paused;
      ReplyFields f = Fields("delayed", samples_);
      f.changed = changed;
      return EncodeOkReply(line.seq, line.cmd, f);
    }
    default: return EncodeOkReply(line.seq, line.cmd, Fields("delayed", samples_));
  }
}

// A closing sample, the tick disarmed, then the pause event.
std::string Recorder::Pause(const ParsedLine& line) {
  Instant now(clock_);
  bool changed = !paused_;
  if (changed) {
    TakeSample(now.t, now.mono);
    tick_->Disarm();
    writer_->WriteAndFlushLine(EncodeEventLine("pause", now.t, now.mono));
    paused_ = true;
  }
  return EncodeOkReply(line.seq, line.cmd, Effect(state(), samples_, now, changed));
}

// The resume event, a fresh baseline sample, the schedule re-armed from now:
// no rate ever spans the pause.
std::string Recorder::Resume(const ParsedLine& line) {
  Instant now(clock_);
  bool changed = paused_;
  if (changed) {
    writer_->Write(EncodeEventLine("resume", now.t, now.mono));
    if (delta_) delta_->ForceKeyframe();  // a reader may start at the resume
    TakeSample(now.t, now.mono);
    paused_ = false;
    ArmTicks(now.mono);
  }
  return EncodeOkReply(line.seq, line.cmd, Effect(state(), samples_, now, changed));
}

// A sample at that instant (none while paused), then the mark event.
std::string Recorder::Mark(const ParsedLine& line) {
  Instant now(clock_);
  if (!paused_) TakeSample(now.t, now.mono);
  writer_->WriteAndFlushLine(EncodeEventLine("mark", now.t, now.mono, line.arg));
  return EncodeOkReply(line.seq, line.cmd, Effect(state(), samples_, now));
}

// One extra sample now; while paused nothing is sampled ("changed":false).
std::string Recorder::ExtraSample(const ParsedLine& line) {
  Instant now(clock_);
  if (!paused_) TakeSample(now.t, now.mono);
  return EncodeOkReply(line.seq, line.cmd, Effect(state(), samples_, now, !paused_));
}

std::string Recorder::Report(const ParsedLine& line, bool full) {
  ReplyFields f = Fields(state(), samples_);
  if (full) {
    f.missed_ticks = missed_ticks_;
    f.bytes_out = writer_->bytes_written();
  }
  return EncodeOkReply(line.seq, line.cmd, f);
}

}  // namespace pm

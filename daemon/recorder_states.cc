// The Recorder's state machine: one table of transitions, rows by state,
// columns by event, as s6-supervise's actions[][]. Each entry names the
// state it moves to and the action on the way; the state changes before
// the action runs (so a stop that samples cannot stop twice), and an
// action that throws leaves the state it started from, which then fails.
// Ticks, marks and extra samples change no state: they read it.
#include <exception>
#include <string>

#include "common/clock.hh"
#include "common/error.hh"
#include "common/sched_hint.hh"
#include "daemon/recorder.hh"

namespace pm {

namespace {
using S = RecorderState;
}  // namespace

const Recorder::Transition Recorder::kTransitions[kRecorderStates][kRecorderEvents] = {
    // kStart, kPause, kResume, kStop, kFail
    /* kDelayed */
    {{S::kRecording, &Recorder::StartRecording}, {S::kDelayedPaused, nullptr},
     {S::kDelayed, nullptr}, {S::kStopped, &Recorder::CloseEmpty},
     {S::kDiscarded, &Recorder::Discard}},
    /* kDelayedPaused */
    {{S::kPaused, &Recorder::StartPaused}, {S::kDelayedPaused, nullptr},
     {S::kDelayed, nullptr}, {S::kStopped, &Recorder::CloseEmpty},
     {S::kDiscarded, &Recorder::Discard}},
    /* kRecording */
    {{S::kRecording, nullptr}, {S::kPaused, &Recorder::PauseNow},
     {S::kRecording, nullptr}, {S::kStopped, &Recorder::CloseRecording},
     {S::kStopped, &Recorder::Keep}},
    /* kPaused */
    {{S::kPaused, nullptr}, {S::kPaused, nullptr},
     {S::kRecording, &Recorder::ResumeNow}, {S::kStopped, &Recorder::ClosePaused},
     {S::kStopped, &Recorder::Keep}},
    /* kStopped: a failure after the close (the ack fd's) still counts */
    {{S::kStopped, nullptr}, {S::kStopped, nullptr},
     {S::kStopped, nullptr}, {S::kStopped, nullptr},
     {S::kStopped, &Recorder::Keep}},
    /* kDiscarded */
    {{S::kDiscarded, nullptr}, {S::kDiscarded, nullptr},
     {S::kDiscarded, nullptr}, {S::kDiscarded, nullptr},
     {S::kDiscarded, nullptr}},
};

bool Recorder::Fire(RecorderEvent event, const Instant& at) noexcept {
  RecorderState from = state_;
  const Transition& t = kTransitions[static_cast<size_t>(from)][static_cast<size_t>(event)];
  state_ = t.next;
  if (!t.action) return true;
  try {
    (this->*t.action)(at);
    return true;
  } catch (const std::exception& e) {
    if (event == RecorderEvent::kFail) return false;  // failing to fail: over all the same
    state_ = from;
    Fail(e);
    return false;
  }
}

// The instant sampling starts: the header's (with the clock's state then),
// and the timeout's origin.
void Recorder::StartClock(const Instant& at) {
  RequestShortSlices();
  started_ = at;
  phase_start_boot_ns_ = NowNs(CLOCK_BOOTTIME);
  header_.start_ns = at.t;
  header_.clock = clock_probe_->Read();
  if (timeout_ns_ > 0) {
    timeout_at_mono_ns_ = at.mono + timeout_ns_;
    deadline_->Arm(timeout_at_mono_ns_, 0);
  }
  if (rotate_.on()) StartPeriod(at);
}

// A background session is visible (record --status, --kill) from its
// lock on, before its ready line: a stop signal that came in between must
// not meet a launcher told "ready". The start fails (kDiscarded), and the
// launcher relays why.
void Recorder::RefuseStartIfStopping() const {
  if (!session_) return;
  if (int signo = SignalSource::PendingStopSignal())
    throw SetupError(std::string("stopped by ") + SignalSource::Name(signo) +
                     " before it was ready (record --kill, or another signal)");
}

void Recorder::StartRecording(const Instant& at) {
  StartClock(at);
  writer_->Write(EncodeHeaderLine(header_));
  TakeSample(at.t, at.mono);
  ArmTicks(at.mono);
  RefuseStartIfStopping();
}

// Said in the file, so every reader counts the time up to the first
// resume as paused, as it counts any other pause.
void Recorder::StartPaused(const Instant& at) {
  StartClock(at);
  writer_->Write(EncodeHeaderLine(header_));
  writer_->WriteAndFlushLine(EncodeEventLine("pause", at.t, at.mono));
  RefuseStartIfStopping();
}

// A closing sample, the tick disarmed, then the pause event.
void Recorder::PauseNow(const Instant& at) {
  TakeSample(at.t, at.mono);
  tick_->Disarm();
  writer_->WriteAndFlushLine(EncodeEventLine("pause", at.t, at.mono));
}

// The resume event, a fresh baseline sample, the schedule re-armed from
// now: no rate ever spans the pause.
void Recorder::ResumeNow(const Instant& at) {
  writer_->Write(EncodeEventLine("resume", at.t, at.mono));
  if (delta_) delta_->ForceKeyframe();  // a reader may start at the resume
  if (table_) table_->Rebase();  // no process row spans the pause
  TakeSample(at.t, at.mono);
  ArmTicks(at.mono);
}

// Stopped during --start-delay: an empty recording.
void Recorder::CloseEmpty(const Instant& at) {
  header_.start_ns = at.t;
  header_.clock = clock_probe_->Read();
  writer_->Write(EncodeHeaderLine(header_));
  WriteTrailer(at);
}

void Recorder::CloseRecording(const Instant& at) {
  TakeSample(at.t, at.mono);
  closing_cost_ = ClosePhase();
  WriteTrailer(at);
}

void Recorder::ClosePaused(const Instant& at) { WriteTrailer(at); }

void Recorder::WriteTrailer(const Instant& at) {
  ScanEveryone("stop", at);
  ClockState clock = clock_probe_->Read();
  writer_->Write(EncodeEndLine({.t_ns = at.t, .mono_ns = at.mono, .reason = stop_reason_,
                                .samples = file_samples_, .missed_ticks = missed_ticks_,
                                .clock = &clock}));
  writer_->Finish();
}

// What was flushed stays a recording: closed as it is.
void Recorder::Keep(const Instant&) {
  if (writer_) writer_->Abandon();
  CloseSources();
  if (failure_kept_) {
    failure_kept_ = false;  // said once
    *failure_ += "; the " + std::to_string(samples_) + " samples written before it are kept";
  }
}

// Before the first flush nothing usable exists: the file is removed and
// Run() reports a setup error; the ready fd stays open for the launcher.
void Recorder::Discard(const Instant&) {
  if (writer_) writer_->Remove();
  CloseSources(true);
}

}  // namespace pm

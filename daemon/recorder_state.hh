// The Recorder's states and the events that move it between them; the
// table of transitions is Recorder::kTransitions (daemon/recorder_states.cc).
//
//   kDelayed <-> kDelayedPaused     pause / resume during --start-delay
//      | start        | start       (the delay's end: header + first sample)
//   kRecording <-> kPaused          pause / resume
//      | stop, fail   | stop, fail
//   kStopped                        a final sample, the trailer, closed; or
//                                   a failure that kept what was flushed
//   kDiscarded                      a failure before anything usable was
//                                   on disk (from a delayed state): the
//                                   file removed, a setup error
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace pm {

enum class RecorderState : uint8_t {
  kDelayed,        // --start-delay: nothing on disk; it will record
  kDelayedPaused,  // the same; it will start paused
  kRecording,      // the header on disk, a sample each tick
  kPaused,         // the header on disk, the tick disarmed
  kStopped,        // over; what was flushed is kept
  kDiscarded,      // over; nothing usable was made
};
inline constexpr size_t kRecorderStates = 6;

enum class RecorderEvent : uint8_t {
  kStart,   // the start delay is over (at once without one)
  kPause,   // the pause command
  kResume,  // the resume command
  kStop,    // the stop fd, a signal, the timeout, the stop command, ...
  kFail,    // a collector, the output or an event source failed
};
inline constexpr size_t kRecorderEvents = 5;

constexpr bool IsDelayed(RecorderState s) {
  return s == RecorderState::kDelayed || s == RecorderState::kDelayedPaused;
}
constexpr bool IsOver(RecorderState s) {
  return s == RecorderState::kStopped || s == RecorderState::kDiscarded;
}

// The state a command's reply names: "delayed", "recording", "paused",
// "stopped".
constexpr std::string_view ReplyStateName(RecorderState s) {
  if (IsDelayed(s)) return "delayed";
  if (IsOver(s)) return "stopped";
  return s == RecorderState::kPaused ? "paused" : "recording";
}

}  // namespace pm

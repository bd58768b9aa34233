// The Recorder's table of transitions (daemon/recorder_states.cc) walked
// on a stepped recorder: from each state, each event as a driver or the
// machine makes it (the start delay's end, a pause or resume command, a
// stop, a failing collector or output), to the state the contract says,
// with the lines on disk and the replies that go with it. Not made here:
// a start once started (the deadline is then the timeout, a stop: the
// other tests' subject), a failure once stopped (the ack reader's, after
// the close) and anything once discarded (the loop has ended).
#include <doctest/doctest.h>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "test/daemon/stepped_recorder.hh"

namespace pm::test {
namespace {

using S = RecorderState;

constexpr int64_t kDelay = 1000 * kMs;

// A stepped recorder with a command fd, brought to `state`.
struct InState : Stepped {
  explicit InState(S state, const char* output = nullptr)
      : Stepped(0, IsDelayed(state) ? kDelay : 0, true, output ? output : "") {
    if (state == S::kDelayedPaused || state == S::kPaused) Command("pause");
    if (state == S::kStopped) Command("stop");
    REQUIRE(recorder.state() == state);
  }
  // meminfo no longer parses: the next sample throws.
  void BreakCollector() { WriteFile(tree.path() / "proc/meminfo", "MemTotal: many kB\n"); }
  size_t Samples() const { return SampleMonos().size(); }
  bool Ends(const std::string& kind) const { return Lines().back().event(kind); }
};

bool Changed(const std::string& reply, bool changed) {
  return reply.find(std::string("\"changed\":") + (changed ? "true" : "false")) !=
         std::string::npos;
}

struct Case {
  S from;
  const char* event;
  S to;
  std::function<void(InState&)> step;   // makes the event
  std::function<void(InState&)> check;  // its effects
  const char* output = nullptr;         // instead of a file in the tree
};

const std::vector<Case>& Cases() {
  static const std::vector<Case> cases = {
      // --start-delay: the start, or a choice of the state to start in.
      {S::kDelayed, "start", S::kRecording, [](InState& s) { s.clock.Advance(kDelay); },
       [](InState& s) { CHECK(s.Samples() == 1); }},
      {S::kDelayed, "pause", S::kDelayedPaused,
       [](InState& s) { CHECK(Changed(s.Command("pause"), true)); },
       [](InState& s) { CHECK(s.Lines().empty()); }},
      {S::kDelayed, "resume", S::kDelayed,
       [](InState& s) { CHECK(Changed(s.Command("resume"), false)); },
       [](InState& s) { CHECK(s.Lines().empty()); }},
      {S::kDelayed, "stop", S::kStopped, [](InState& s) { s.Command("stop"); },
       [](InState& s) {  // an empty recording: the header and the trailer
         CHECK(s.Lines().size() == 2);
         CHECK(s.Ends("end"));
       }},
      {S::kDelayed, "fail", S::kDiscarded,
       [](InState& s) {
         s.BreakCollector();
         s.clock.Advance(kDelay);  // the first sample fails
       },
       [](InState& s) {
         CHECK_FALSE(std::filesystem::exists(s.config.output));
         CHECK(s.recorder.failure()->find("MemTotal") != std::string::npos);
       }},
      {S::kDelayedPaused, "start", S::kPaused, [](InState& s) { s.clock.Advance(kDelay); },
       [](InState& s) {  // the header, then the pause it starts in
         CHECK(s.Lines().size() == 2);
         CHECK(s.Ends("pause"));
       }},
      {S::kDelayedPaused, "pause", S::kDelayedPaused,
       [](InState& s) { CHECK(Changed(s.Command("pause"), false)); }, [](InState&) {}},
      {S::kDelayedPaused, "resume", S::kDelayed,
       [](InState& s) { CHECK(Changed(s.Command("resume"), true)); }, [](InState&) {}},
      {S::kDelayedPaused, "stop", S::kStopped, [](InState& s) { s.Command("stop"); },
       [](InState& s) { CHECK(s.Lines().size() == 2); }},
      {S::kDelayedPaused, "fail", S::kDiscarded,
       [](InState& s) { s.clock.Advance(kDelay); },  // the header's write fails
       [](InState& s) {
         CHECK(s.recorder.failure()->find("No space left on device") != std::string::npos);
       },
       "/dev/full"},
      // Recording: a sample per tick.
      {S::kRecording, "pause", S::kPaused,
       [](InState& s) { CHECK(Changed(s.Command("pause"), true)); },
       [](InState& s) {  // a closing sample, then the event
         CHECK(s.Samples() == 2);
         CHECK(s.Ends("pause"));
       }},
      {S::kRecording, "resume", S::kRecording,
       [](InState& s) { CHECK(Changed(s.Command("resume"), false)); },
       [](InState& s) { CHECK(s.Samples() == 1); }},
      {S::kRecording, "stop", S::kStopped, [](InState& s) { s.Command("stop"); },
       [](InState& s) {  // a final sample, then the trailer
         CHECK(s.Samples() == 2);
         CHECK(s.Ends("end"));
       }},
      {S::kRecording, "fail", S::kStopped,
       [](InState& s) {
         s.BreakCollector();
         s.clock.Advance(100 * kMs);  // the tick's sample fails
       },
       [](InState& s) {
         CHECK(s.Samples() == 1);  // kept, without a trailer
         CHECK(s.recorder.failure()->find("the 1 samples written before it are kept") !=
               std::string::npos);
       }},
      // Paused: no ticks.
      {S::kPaused, "pause", S::kPaused,
       [](InState& s) { CHECK(Changed(s.Command("pause"), false)); },
       [](InState& s) { CHECK(s.Samples() == 2); }},
      {S::kPaused, "resume", S::kRecording,
       [](InState& s) { CHECK(Changed(s.Command("resume"), true)); },
       [](InState& s) {  // the event, then a fresh baseline sample
         std::vector<Line> lines = s.Lines();
         CHECK(lines[lines.size() - 2].event("resume"));
         CHECK(lines.back().sample());
       }},
      {S::kPaused, "stop", S::kStopped, [](InState& s) { s.Command("stop"); },
       [](InState& s) {  // no sample while paused
         CHECK(s.Samples() == 2);
         CHECK(s.Ends("end"));
       }},
      {S::kPaused, "fail", S::kStopped,
       [](InState& s) {
         s.BreakCollector();
         CHECK(s.Command("resume").empty());  // the resume's sample fails: no reply
       },
       [](InState& s) {
         CHECK(s.Samples() == 2);
         CHECK(s.recorder.failure()->find("are kept") != std::string::npos);
       }},
      // Stopped: nothing moves it.
      {S::kStopped, "pause", S::kStopped, [](InState& s) { CHECK(s.Command("pause").empty()); },
       [](InState& s) { CHECK(s.Ends("end")); }},
      {S::kStopped, "stop", S::kStopped, [](InState& s) { s.Command("stop"); },
       [](InState& s) { CHECK(s.Lines().size() == 4); }},  // one trailer
  };
  return cases;
}

TEST_CASE("the recorder's transitions: from each state, each event, to the table's state") {
  for (const Case& c : Cases()) {
    CAPTURE(static_cast<int>(c.from));
    CAPTURE(c.event);
    InState s(c.from, c.output);
    c.step(s);
    CHECK(s.recorder.state() == c.to);
    CHECK(s.recorder.stopped() == IsOver(c.to));
    c.check(s);
  }
}

}  // namespace
}  // namespace pm::test

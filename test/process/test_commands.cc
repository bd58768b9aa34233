// The command protocol on the real binary (DESIGN.md §5): replies in order
// on --ack-fd, and their effects (pause, resume, mark, sample, stop) checked
// in the recording itself, never by elapsed time.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "test/process/recording.hh"

namespace pm::test {
namespace {

bool Ok(const Json& reply) { return bool(reply.root()["ok"]); }
bool Changed(const Json& reply) { return bool(reply.root()["changed"]); }

// Every line of a recording, parsed.
std::vector<Json> Parse(const Recording& rec) {
  std::vector<Json> lines;
  for (const std::string& line : rec.lines) lines.emplace_back(line);
  return lines;
}

bool IsSample(const Json& line) { return line.Has("t") && !line.Has("event"); }
bool IsEvent(const Json& line, const char* kind) {
  return line.Has("event") && line.Str("event") == kind;
}

size_t SamplesIn(const std::string& path) {
  return CountSampleLines(ReadRecording(path));
}

void CheckOk(const Json& r, int64_t seq, const char* cmd, const char* state) {
  CAPTURE(r.text());
  CHECK(r.Int("seq") == seq);
  CHECK(r.Str("cmd") == cmd);
  CHECK(Ok(r));
  CHECK(r.Str("state") == state);
  CHECK(r.Has("samples"));
  CHECK_FALSE(r.Has("error"));
}

void CheckError(const Json& r, int64_t seq, const char* error) {
  CAPTURE(r.text());
  CHECK(r.Int("seq") == seq);
  CHECK_FALSE(Ok(r));
  CHECK(r.Str("error") == error);
  CHECK_FALSE(r.Has("state"));
}

TEST_SUITE("commands") {
  TEST_CASE("every verb and every error: one reply each, in order") {
    TempDir dir;
    std::string out = dir / "out.pgr.gz";
    CommandSession s({"record", "-l", out, "-i", "0.1"});
    CHECK(Json(s.ReadReadyLine()).Str("state") == "recording");
    CheckOk(s.Command("ping"), 1, "ping", "recording");
    Json status = s.Command("status");
    CheckOk(status, 2, "status", "recording");
    CHECK(status.Int("samples") >= 1);
    CHECK(status.Has("missed_ticks"));
    CHECK(status.Int("bytes_out") > 0);
    Json pause = s.Command("pause");
    CheckOk(pause, 3, "pause", "paused");
    CHECK(Changed(pause));
    Json again = s.Command("pause");
    CheckOk(again, 4, "pause", "paused");
    CHECK_FALSE(Changed(again));
    Json resume = s.Command("resume");
    CheckOk(resume, 5, "resume", "recording");
    CHECK(Changed(resume));
    CheckOk(s.Command("mark phase-1"), 6, "mark", "recording");
    Json sample = s.Command("sample");
    CheckOk(sample, 7, "sample", "recording");
    CHECK(Changed(sample));
    Json unknown = s.Command("frobnicate");
    CheckError(unknown, 8, "unknown_command");
    CHECK(unknown.Str("cmd") == "frobnicate");
    CheckError(s.Command("mark"), 9, "bad_argument");
    CheckError(s.Command(std::string(300, 'x')), 10, "line_too_long");
    Json nul = s.Command(std::string("pi\0ng", 5));
    CheckError(nul, 11, "bad_byte");
    CHECK(nul.Str("cmd") == "ping");  // bad bytes dropped from the echo
    s.Send("ping\r\n");
    CheckOk(s.Reply(), 12, "ping", "recording");
    s.Send("\n\r\n");  // empty lines: no reply, no seq
    CheckOk(s.Command("ping"), 13, "ping", "recording");
    s.CloseStop();
    ExitResult r = s.Wait();
    CAPTURE(r.err);
    CHECK(r.code == 0);
    CHECK(r.err.empty());
    CHECK(s.acks().ReadToEof(DefaultDeadline()).empty());  // nothing more
    CheckCleanRecording(out, "stop-fd");
  }

  TEST_CASE("a 100-command burst in one write: 100 replies in order") {
    TempDir dir;
    std::string out = dir / "out.pgr.gz";
    CommandSession s({"record", "-l", out, "-i", "0.1"});
    s.ReadReadyLine();
    std::string burst;
    for (int i = 0; i < 100; ++i) burst += "ping\n";
    s.Send(burst);
    for (int64_t seq = 1; seq <= 100; ++seq) CheckOk(s.Reply(), seq, "ping", "recording");
    s.CloseStop();
    ExitResult r = s.Wait();
    CHECK(r.code == 0);
    CHECK(s.acks().ReadToEof(DefaultDeadline()).empty());
    CheckCleanRecording(out, "stop-fd");
  }

  TEST_CASE("pause stops the samples, resume starts them again (in the file)") {
    TempDir dir;
    std::string out = dir / "out.pgr";
    CommandSession s({"record", "-l", out, "-i", "0.02"});
    s.ReadReadyLine();
    WaitForSamples(out, 3, DefaultDeadline());  // the tick runs
    Json pause = s.Command("pause");
    REQUIRE(Ok(pause));
    int64_t n = pause.Int("samples");
    CHECK(SamplesIn(out) == size_t(n));  // on disk before the reply
    // 15 intervals with no write at all to the file.
    CHECK(QuietUntil(out, After(std::chrono::milliseconds(300))));
    CHECK(SamplesIn(out) == size_t(n));
    CHECK(s.Command("status").Int("samples") == n);
    Json sample = s.Command("sample");  // a no-op while paused
    CHECK(Ok(sample));
    CHECK_FALSE(Changed(sample));
    CHECK(sample.Int("samples") == n);
    CHECK(SamplesIn(out) == size_t(n));
    Json resume = s.Command("resume");
    CHECK(resume.Int("samples") == n + 1);  // the fresh baseline
    CHECK(WaitForSamples(out, size_t(n) + 4, DefaultDeadline()) >= size_t(n) + 4);
    s.CloseStop();
    ExitResult r = s.Wait();
    CHECK(r.code == 0);
    CheckCleanRecording(out, "stop-fd");

    std::vector<Json> lines = Parse(ReadRecording(out));
    size_t pause_at = 0, resume_at = 0;
    for (size_t i = 1; i < lines.size(); ++i) {
      if (IsEvent(lines[i], "pause")) {
        CHECK(pause_at == 0);  // exactly one of each
        pause_at = i;
      }
      if (IsEvent(lines[i], "resume")) {
        CHECK(resume_at == 0);
        resume_at = i;
      }
    }
    REQUIRE(pause_at > 1);
    REQUIRE(resume_at > pause_at);
    REQUIRE(resume_at + 1 < lines.size());
    CHECK(IsSample(lines[pause_at - 1]));  // the closing sample
    CHECK(lines[pause_at - 1].Int("t") == lines[pause_at].Int("t"));
    CHECK(lines[pause_at].Int("t") == pause.Int("t"));
    for (size_t i = pause_at + 1; i < resume_at; ++i) CHECK_FALSE(IsSample(lines[i]));
    CHECK(IsSample(lines[resume_at + 1]));  // the baseline
    CHECK(lines[resume_at + 1].Int("t") == lines[resume_at].Int("t"));
    CHECK(lines[resume_at].Int("t") == resume.Int("t"));
  }

  TEST_CASE("--start-paused: ready before any sample, samples from resume") {
    TempDir dir;
    std::string out = dir / "out.pgr.gz";
    CommandSession s({"record", "-l", out, "-i", "0.02", "--start-paused"});
    CHECK(Json(s.ReadReadyLine()).Str("state") == "paused");
    Recording at_ready = ReadRecording(out);
    REQUIRE(at_ready.lines.size() == 2);  // the header and the pause, no sample
    CHECK(Json(at_ready.lines[0]).Str("format") == "perfmonger-pgr");
    CHECK(Json(at_ready.lines[1]).Str("event") == "pause");
    CHECK(Json(at_ready.lines[1]).Int("t") == Json(at_ready.lines[0]).Int("start_ns"));
    Json status = s.Command("status");
    CheckOk(status, 1, "status", "paused");
    CHECK(status.Int("samples") == 0);
    CHECK(QuietUntil(out, After(std::chrono::milliseconds(200))));
    CHECK(SamplesIn(out) == 0);
    Json resume = s.Command("resume");
    CheckOk(resume, 2, "resume", "recording");
    CHECK(resume.Int("samples") == 1);
    CHECK(WaitForSamples(out, 4, DefaultDeadline()) >= 4);
    s.CloseStop();
    ExitResult r = s.Wait();
    CHECK(r.code == 0);
    CHECK(CheckCleanRecording(out, "stop-fd") >= 4);
  }

  TEST_CASE("marks: labelled events, each right after a sample at its instant") {
    TempDir dir;
    std::string out = dir / "out.pgr.gz";
    CommandSession s({"record", "-l", out, "-i", "0.1"});
    s.ReadReadyLine();
    const std::vector<std::string> labels = {"q1", "q 2"};
    std::vector<int64_t> reply_t;
    for (const std::string& label : labels) {
      Json reply = s.Command("mark " + label);
      CHECK(Ok(reply));
      reply_t.push_back(reply.Int("t"));
    }
    s.CloseStop();
    ExitResult r = s.Wait();
    CHECK(r.code == 0);
    CheckCleanRecording(out, "stop-fd");
    std::vector<Json> lines = Parse(ReadRecording(out));
    std::vector<size_t> marks;
    for (size_t i = 1; i < lines.size(); ++i)
      if (IsEvent(lines[i], "mark")) marks.push_back(i);
    REQUIRE(marks.size() == labels.size());
    for (size_t k = 0; k < marks.size(); ++k) {
      const Json& mark = lines[marks[k]];
      CHECK(mark.Str("label") == labels[k]);
      CHECK(mark.Int("t") == reply_t[k]);
      CHECK(IsSample(lines[marks[k] - 1]));
      CHECK(lines[marks[k] - 1].Int("t") == mark.Int("t"));
    }
  }

  TEST_CASE("the stop command: final count in the reply and the trailer") {
    TempDir dir;
    std::string out = dir / "out.pgr.gz";
    CommandSession s({"record", "-l", out, "-i", "0.05"});
    s.ReadReadyLine();
    WaitForSamples(out, 2, DefaultDeadline());
    Json stop = s.Command("stop");
    CheckOk(stop, 1, "stop", "stopped");
    ExitResult r = s.Wait();
    CAPTURE(r.err);
    CHECK(r.code == 0);
    CHECK(r.err.empty());
    size_t samples = CheckCleanRecording(out, "stop-cmd");
    CHECK(stop.Int("samples") == int64_t(samples));
    CHECK(Json(ReadRecording(out).lines.back()).Int("samples") == stop.Int("samples"));
  }
}

}  // namespace
}  // namespace pm::test

// The fds of the command protocol (DESIGN.md §5): EOF on the command fd, a
// vanished ack reader, no ack fd at all, the parent's flags left alone, and
// the setup errors of --cmd-fd, --ack-fd and --start-paused.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/socket.h>

#include <string>
#include <vector>

#include "common/io.hh"
#include "test/process/recording.hh"

namespace pm::test {
namespace {

bool HasEvent(const Recording& rec, const char* kind, const char* label = nullptr) {
  for (size_t i = 1; i < rec.lines.size(); ++i) {
    Json line(rec.lines[i]);
    if (line.Has("event") && line.Str("event") == kind &&
        (!label || (line.Has("label") && line.Str("label") == label)))
      return true;
  }
  return false;
}

size_t SamplesIn(const std::string& path) {
  return CountSampleLines(ReadRecording(path));
}

bool NonBlocking(int fd) {
  int flags = fcntl(fd, F_GETFL);
  REQUIRE(flags >= 0);
  return (flags & O_NONBLOCK) != 0;
}

UniqueFd Dup(int fd) { return UniqueFd::Adopt(fcntl(fd, F_DUPFD_CLOEXEC, 0)); }

TEST_SUITE("command fds") {
  TEST_CASE("EOF on the command fd: the recording goes on") {
    TempDir dir;
    std::string out = dir / "out.pgr.gz";
    CommandSession s({"record", "-l", out, "-i", "0.02"});
    s.ReadReadyLine();
    s.Send("ping");  // no LF: answered only once the EOF is seen
    s.CloseCmd();
    Json reply = s.Reply();
    CHECK(reply.Int("seq") == 1);
    CHECK(reply.Str("cmd") == "ping");
    size_t n = SamplesIn(out);
    CHECK(WaitForSamples(out, n + 3, DefaultDeadline()) >= n + 3);
    s.CloseStop();
    ExitResult r = s.Wait();
    CAPTURE(r.err);
    CHECK(r.code == 0);
    CHECK(r.err.empty());
    CheckCleanRecording(out, "stop-fd");
  }

  TEST_CASE("the ack reader gone mid-run: one note, no death") {
    TempDir dir;
    std::string out = dir / "out.pgr.gz";
    CommandSession s({"record", "-l", out, "-i", "0.02"});
    s.ReadReadyLine();
    CHECK(s.Command("ping").Int("seq") == 1);
    s.CloseAck();
    for (int i = 0; i < 3; ++i) s.Send("ping\n");
    s.Send("mark after\n");  // still obeyed once acks are off
    WaitForRecording(out, [](const Recording& rec) { return HasEvent(rec, "mark", "after"); },
                     DefaultDeadline());
    size_t n = SamplesIn(out);
    CHECK(WaitForSamples(out, n + 3, DefaultDeadline()) >= n + 3);
    s.CloseStop();
    ExitResult r = s.Wait();
    CAPTURE(r.err);
    CHECK(r.code == 0);
    CHECK(r.signal == 0);
    std::vector<std::string> err = SplitLines(r.err);
    CHECK(err.size() == 1);
    CHECK(r.err.find("acks are off") != std::string::npos);
    CheckCleanRecording(out, "stop-fd");
  }

  // 1,500 replies are far more than a pipe (64 KiB) holds: a full ack pipe
  // is back-pressure, so the recorder stops reading commands until the
  // driver reads, keeps sampling meanwhile, and drops no reply.
  TEST_CASE("a driver that writes 1500 marks before reading gets 1500 replies") {
    TempDir dir;
    std::string out = dir / "out.pgr.gz";
    CommandSession s({"record", "-l", out, "-i", "0.02"});
    s.ReadReadyLine();
    constexpr int kMarks = 1500;
    std::string burst;
    for (int i = 1; i <= kMarks; ++i) burst += "mark m" + std::to_string(i) + "\n";
    s.Send(burst);
    // Not reading yet: once the ack pipe is full the sampler goes on.
    WaitForRecording(out, [](const Recording& rec) { return HasEvent(rec, "mark", "m300"); },
                     DefaultDeadline());
    size_t n = SamplesIn(out);
    CHECK(WaitForSamples(out, n + 3, DefaultDeadline()) >= n + 3);
    Deadline deadline = After(std::chrono::seconds(30));
    for (int i = 1; i <= kMarks; ++i) {
      Json reply = s.Reply(deadline);
      REQUIRE(reply.Int("seq") == i);
      REQUIRE(bool(reply.root()["ok"]));
    }
    CHECK(s.Command("stop").Str("state") == "stopped");
    ExitResult r = s.Wait();
    CAPTURE(r.err);
    CHECK(r.code == 0);
    CHECK(r.err.empty());
    CHECK(HasEvent(ReadRecording(out), "mark", "m1500"));
  }

  TEST_CASE("without --ack-fd commands run unacknowledged") {
    TempDir dir;
    std::string out = dir / "out.pgr.gz";
    CommandSession s({"record", "-l", out, "-i", "0.05"}, false);
    CHECK(Json(s.ReadReadyLine()).Str("state") == "recording");
    s.Send("pause\n");
    WaitForRecording(out, [](const Recording& rec) { return HasEvent(rec, "pause"); },
                     DefaultDeadline());
    s.Send("resume\nmark m\n");
    WaitForRecording(out, [](const Recording& rec) { return HasEvent(rec, "mark", "m"); },
                     DefaultDeadline());
    s.CloseStop();
    ExitResult r = s.Wait();
    CAPTURE(r.err);
    CHECK(r.code == 0);
    CHECK(r.err.empty());
    Recording rec = ReadRecording(out);
    CHECK(HasEvent(rec, "resume"));
    CheckCleanRecording(out, "stop-fd");
  }

  TEST_CASE("the parent's copies of the cmd and ack fds keep their flags") {
    // [0] is the parent's end, [1] the one the child gets (a dup of it).
    int cmd[2], ack[2];
    bool sockets = false;
    SUBCASE("pipes") {}
    SUBCASE("socketpairs") { sockets = true; }
    CAPTURE(sockets);
    if (sockets) {
      REQUIRE(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, cmd) == 0);
      REQUIRE(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ack) == 0);
    } else {
      int c[2], a[2];
      REQUIRE(pipe2(c, O_CLOEXEC) == 0);
      REQUIRE(pipe2(a, O_CLOEXEC) == 0);
      cmd[0] = c[1], cmd[1] = c[0];  // we write, the child reads
      ack[0] = a[0], ack[1] = a[1];  // the child writes, we read
    }
    UniqueFd cmd_ours = UniqueFd::Adopt(cmd[0]), cmd_kept = UniqueFd::Adopt(cmd[1]);
    UniqueFd ack_ours = UniqueFd::Adopt(ack[0]), ack_kept = UniqueFd::Adopt(ack[1]);
    REQUIRE_FALSE(NonBlocking(cmd_kept.Get()));
    REQUIRE_FALSE(NonBlocking(ack_kept.Get()));

    TempDir dir;
    std::string out = dir / "out.pgr.gz";
    Pipe ready = MakePipe(), stop = MakePipe();
    SpawnOptions options;
    options.args = {"record", "-l", out, "-i", "0.05", "--ready-fd", "3",
                    "--stop-fd", "4", "--cmd-fd", "5", "--ack-fd", "6"};
    options.fds.emplace_back(3, std::move(ready.write_end));
    options.fds.emplace_back(4, std::move(stop.read_end));
    options.fds.emplace_back(5, Dup(cmd_kept.Get()));
    options.fds.emplace_back(6, Dup(ack_kept.Get()));
    Child child(std::move(options));
    LineInput ready_in(std::move(ready.read_end));
    LineInput acks(Dup(ack_ours.Get()));
    REQUIRE(ready_in.ReadLine(DefaultDeadline()));
    WriteAll(cmd_ours.Get(), "status\npause\nresume\n");
    for (int i = 0; i < 3; ++i) {
      std::optional<std::string> line = acks.ReadLine(DefaultDeadline());
      REQUIRE(line);
      CHECK(Json(*line).Int("seq") == i + 1);
    }
    CHECK_FALSE(NonBlocking(cmd_kept.Get()));  // during the run
    CHECK_FALSE(NonBlocking(ack_kept.Get()));
    stop.write_end.Reset();
    ExitResult r = child.Wait();
    CAPTURE(r.err);
    CHECK(r.code == 0);
    CHECK_FALSE(NonBlocking(cmd_kept.Get()));  // and after it
    CHECK_FALSE(NonBlocking(ack_kept.Get()));
    CHECK_FALSE(NonBlocking(cmd_ours.Get()));
    CHECK_FALSE(NonBlocking(ack_ours.Get()));
    CheckCleanRecording(out, "stop-fd");
  }
}

}  // namespace
}  // namespace pm::test

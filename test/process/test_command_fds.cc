// The fds of the command protocol (DESIGN.md §5): EOF on the command fd, a
// vanished ack reader, no ack fd at all, the parent's flags left alone, and
// the setup errors of --cmd-fd, --ack-fd and --start-paused.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/socket.h>

#include <filesystem>
#include <functional>
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

using Wiring = std::function<void(SpawnOptions&)>;

Wiring PipeEndsAt(std::vector<std::pair<int, bool>> ends) {  // (fd, write end?)
  return [=](SpawnOptions& o) {
    for (auto [target, write_end] : ends) {
      Pipe p = MakePipe();
      o.fds.emplace_back(target, std::move(write_end ? p.write_end : p.read_end));
    }
  };
}

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

  TEST_CASE("setup errors of the command fds: exit 1, one line, no file") {
    struct Case {
      const char* name;
      std::vector<std::string> args;
      Wiring wiring;
      const char* mentions;
    };
    const std::vector<Case> cases = {
        {"cmd fd not open", {"--cmd-fd", "7"}, {}, "not open"},
        {"cmd fd a write end", {"--cmd-fd", "5"}, PipeEndsAt({{5, true}}), "write-only"},
        {"ack fd a read end", {"--cmd-fd", "5", "--ack-fd", "6"},
         PipeEndsAt({{5, false}, {6, false}}), "read-only"},
        {"cmd and ack one fd", {"--cmd-fd", "5", "--ack-fd", "5"},
         PipeEndsAt({{5, false}}), "5"},
        {"start paused without cmd fd", {"--start-paused"}, {}, "--start-paused"},
        {"ack fd without cmd fd", {"--ack-fd", "6"}, PipeEndsAt({{6, true}}), "--ack-fd"},
        {"background with cmd fd", {"--background", "--cmd-fd", "5"},
         PipeEndsAt({{5, false}}), "--background"},
    };
    for (const Case& c : cases) {
      std::string name = c.name;
      CAPTURE(name);
      TempDir dir;
      std::filesystem::create_directory(dir / "rec");
      SpawnOptions options;
      options.args = {"record", "-l", dir / "rec/out.pgr.gz"};
      options.args.insert(options.args.end(), c.args.begin(), c.args.end());
      options.env = {"TMPDIR=" + dir.path()};  // a stray --background stays here
      if (c.wiring) c.wiring(options);
      ExitResult r = Child(std::move(options)).Wait();
      CAPTURE(r.err);
      CHECK(r.code == 1);
      CHECK(SplitLines(r.err).size() == 1);
      CHECK(r.err.rfind("perfmonger record: error: ", 0) == 0);
      CHECK(r.err.find(c.mentions) != std::string::npos);
      CHECK(std::filesystem::is_empty(dir / "rec"));
    }
  }
}

}  // namespace
}  // namespace pm::test

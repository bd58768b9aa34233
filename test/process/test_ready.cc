// --ready-fd: the "recording is armed" signal a harness blocks on, the
// banner it replaces, and what the recorder may not do to the parent's fds.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/socket.h>

#include "common/io.hh"
#include "test/process/recording.hh"
#include "test/process/text_shapes.hh"

namespace pm::test {
namespace {

UniqueFd Dup(int fd) { return UniqueFd::Adopt(fcntl(fd, F_DUPFD_CLOEXEC, 0)); }
int StatusFlags(const UniqueFd& fd) { return fcntl(fd.Get(), F_GETFL); }

TEST_SUITE("ready") {
  TEST_CASE("the ready line: five fields in order, one line, then the fd closes") {
    TempDir dir;
    Session s({"record", "-l", "out.pgr.gz", "-i", "0.1"}, dir.path());
    std::string line = s.ReadReadyLine();
    // Read the file before anything else: the line promises it is armed.
    Recording rec = ReadRecording(dir / "out.pgr.gz");
    std::string rest = s.ready().ReadToEof(DefaultDeadline());

    CHECK(line.find('\n') == line.size() - 1);
    CHECK(rest.empty());
    CHECK(s.ready().eof());
    Json ready(line);
    std::vector<std::string> keys = ready.Keys();
    REQUIRE(keys.size() >= 5);
    CHECK(std::vector<std::string>(keys.begin(), keys.begin() + 5) ==
          std::vector<std::string>{"event", "version", "pid", "output", "start_time"});
    CHECK(ready.Str("event") == "ready");
    CHECK(ready.Int("version") == 1);
    CHECK(ready.Int("pid") == s.child().pid());
    CHECK(ready.Str("output") == dir / "out.pgr.gz");
    CHECK(IsRfc3339Utc(ready.Str("start_time")));

    REQUIRE(rec.lines.size() >= 2);
    Json header(rec.lines[0]);
    CHECK(header.Str("format") == "perfmonger-pgr");
    CHECK(header.Str("start_time") == ready.Str("start_time"));
    CHECK(CountSampleLines(rec) >= 1);

    s.CloseStop();
    ExitResult r = s.Wait();
    CHECK(r.code == 0);
    CHECK(r.err.find("[recording to") == std::string::npos);
  }

  TEST_CASE("without --ready-fd the banner names the absolute output") {
    TempDir dir;
    Pipe stop = MakePipe();
    SpawnOptions options;
    options.args = {"record", "-l", "out.pgr.gz", "-i", "0.1", "--stop-fd", "4"};
    options.fds.emplace_back(4, std::move(stop.read_end));
    options.cwd = dir.path();
    Child child(std::move(options));
    stop.write_end.Reset();  // stops as soon as it runs
    ExitResult r = child.Wait();
    CHECK(r.code == 0);
    CHECK(r.err.find("[recording to " + (dir / "out.pgr.gz") + "]\n") !=
          std::string::npos);
    Recording rec = ReadRecording(dir / "out.pgr.gz");
    REQUIRE_FALSE(rec.lines.empty());
    CHECK(Json(rec.lines.back()).Str("event") == "end");
  }

  // libuv sets O_NONBLOCK on polled fds, on the open file description that
  // the parent shares: a parent blocking on its copy would get EAGAIN.
  TEST_CASE("the parent's copies of the ready and stop fds keep their flags") {
    TempDir dir;
    bool socket_stop = false;
    SUBCASE("stop fd a pipe") {}
    SUBCASE("stop fd a socketpair") { socket_stop = true; }
    CAPTURE(socket_stop);

    Pipe ready = MakePipe();
    UniqueFd stop_child_end;  // same description as the child's stop fd
    UniqueFd stop_peer;       // closing it stops the recording
    if (socket_stop) {
      int sv[2];
      REQUIRE(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0);
      stop_child_end = UniqueFd::Adopt(sv[0]);
      stop_peer = UniqueFd::Adopt(sv[1]);
    } else {
      Pipe stop = MakePipe();
      stop_child_end = std::move(stop.read_end);
      stop_peer = std::move(stop.write_end);
    }
    int ready_flags = StatusFlags(ready.write_end);
    int stop_flags = StatusFlags(stop_child_end);
    REQUIRE((ready_flags & O_NONBLOCK) == 0);
    REQUIRE((stop_flags & O_NONBLOCK) == 0);

    SpawnOptions options;
    options.args = {"record", "-l", dir / "out.pgr.gz", "-i", "0.1",
                    "--ready-fd", "3", "--stop-fd", "4"};
    options.fds.emplace_back(3, Dup(ready.write_end.Get()));
    options.fds.emplace_back(4, Dup(stop_child_end.Get()));
    Child child(std::move(options));
    LineInput ready_in(std::move(ready.read_end));
    REQUIRE(ready_in.ReadLine(DefaultDeadline()));

    {
      INFO("while recording");
      CHECK(StatusFlags(ready.write_end) == ready_flags);
      CHECK(StatusFlags(stop_child_end) == stop_flags);
    }

    stop_peer.Reset();
    ExitResult r = child.Wait();
    CHECK(r.code == 0);
    {
      INFO("after the recording");
      CHECK(StatusFlags(ready.write_end) == ready_flags);
      CHECK(StatusFlags(stop_child_end) == stop_flags);
    }
  }
}

}  // namespace
}  // namespace pm::test

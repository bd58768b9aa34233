// --ready-fd: the "recording is armed" signal a harness blocks on, the
// banner it replaces, and what the recorder may not do to the parent's fds.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>

#include "common/io.hh"
#include "test/process/recording.hh"
#include "test/process/text_shapes.hh"

namespace pm::test {
namespace {

UniqueFd Dup(int fd) { return UniqueFd::Adopt(fcntl(fd, F_DUPFD_CLOEXEC, 0)); }
int StatusFlags(const UniqueFd& fd) { return fcntl(fd.Get(), F_GETFL); }

// A datagram socket of the test's, bound to `address`: a path, or after
// '@' an abstract name, as systemd's $NOTIFY_SOCKET names them.
UniqueFd NotifyListener(const std::string& address) {
  UniqueFd fd = UniqueFd::Adopt(socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0));
  REQUIRE(fd.IsValid());
  sockaddr_un a = {};
  a.sun_family = AF_UNIX;
  REQUIRE(address.size() <= sizeof a.sun_path);
  std::memcpy(a.sun_path, address.data(), address.size());
  if (address[0] == '@') a.sun_path[0] = '\0';
  const auto size = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + address.size());
  REQUIRE(bind(fd.Get(), reinterpret_cast<const sockaddr*>(&a), size) == 0);
  return fd;
}

// The next datagram, by the deadline.
std::string Datagram(const UniqueFd& fd, Deadline deadline = DefaultDeadline()) {
  pollfd p = {fd.Get(), POLLIN, 0};
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      deadline - std::chrono::steady_clock::now());
  REQUIRE(poll(&p, 1, static_cast<int>(std::max<int64_t>(left.count(), 0))) == 1);
  char buf[256];
  ssize_t n = recv(fd.Get(), buf, sizeof buf, 0);
  REQUIRE(n >= 0);
  return std::string(buf, static_cast<size_t>(n));
}


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

  TEST_CASE("NOTIFY_SOCKET (systemd Type=notify): READY=1 with a sample on disk, STOPPING=1") {
    TempDir dir;
    const std::string path = dir / "out.pgr";
    std::string address;
    SUBCASE("a path") { address = dir / "notify"; }
    SUBCASE("an abstract name") { address = "@perfmonger-test-" + std::to_string(getpid()); }
    UniqueFd listener = NotifyListener(address);
    SpawnOptions options;
    options.args = {"record", "-l", path, "-i", "0.1", "--no-gzip"};
    options.env = {"NOTIFY_SOCKET=" + address};
    Child child(std::move(options));
    CHECK(Datagram(listener) == "READY=1");
    // READY=1 comes when the ready line would: the first sample is on disk.
    CHECK(CountSampleLines(ReadRecording(path)) >= 1);
    child.Signal(SIGTERM);
    CHECK(Datagram(listener) == "STOPPING=1");
    ExitResult r = child.Wait();
    CHECK(r.code == 0);
    CHECK(r.err.find("warning") == std::string::npos);
    CHECK(Json(ReadRecording(path).lines.back()).Str("event") == "end");
  }

  TEST_CASE("NOTIFY_SOCKET: stat's command does not see it; a malformed one is a setup error") {
    TempDir dir;
    const std::string address = dir / "notify";
    UniqueFd listener = NotifyListener(address);
    SpawnOptions options;
    options.args = {"stat", "-l", dir / "stat.pgr", "--", "/bin/sh", "-c",
                    "echo \"[${NOTIFY_SOCKET-unset}]\""};
    options.env = {"NOTIFY_SOCKET=" + address};
    Child child(std::move(options));
    CHECK(Datagram(listener) == "READY=1");
    CHECK(Datagram(listener) == "STOPPING=1");  // the command's exit stops it
    ExitResult r = child.Wait();
    CHECK(r.code == 0);
    CHECK(r.out.find("[unset]\n") != std::string::npos);

    SpawnOptions bad;
    bad.args = {"record", "-l", dir / "bad.pgr", "-i", "0.1"};
    bad.env = {"NOTIFY_SOCKET=notify"};
    r = Child(std::move(bad)).Wait();
    CHECK(r.code == 1);
    CHECK(r.err == "perfmonger record: error: NOTIFY_SOCKET 'notify': not an absolute path or an "
                   "@abstract name (unset it outside a systemd Type=notify service)\n");
    CHECK(access((dir / "bad.pgr").c_str(), F_OK) != 0);  // nothing written
  }
}

}  // namespace
}  // namespace pm::test

// Every way a recording ends cleanly: stop-fd EOF, stdin EOF, SIGINT,
// SIGTERM, SIGHUP, --timeout. Each leaves a complete file with its `end` trailer.
#include <doctest/doctest.h>
#include <signal.h>

#include "common/io.hh"
#include "test/process/recording.hh"

namespace pm::test {
namespace {

TEST_SUITE("stops") {
  TEST_CASE("closing the stop pipe stops cleanly") {
    TempDir dir;
    std::string out = dir / "out.pgr.gz";
    Session s({"record", "-l", out, "-i", "0.1"});
    s.ReadReadyLine();
    s.CloseStop();
    ExitResult r = s.Wait();
    CAPTURE(r.err);
    CHECK(r.code == 0);
    CHECK(r.err.empty());
    // The first sample, and a final one at the stop instant.
    CHECK(CheckCleanRecording(out, "stop-fd") >= 2);
    CHECK(GzipTest(out) == 0);
  }

  TEST_CASE("EOF on stdin stops a --stop-fd=0 recording") {
    TempDir dir;
    std::string out = dir / "out.pgr.gz";
    Pipe in = MakePipe();
    Pipe ready = MakePipe();
    SpawnOptions options;
    options.args = {"record", "-l", out, "-i", "0.1", "--stop-fd=0", "--ready-fd=3"};
    options.stdin_fd = std::move(in.read_end);
    options.fds.emplace_back(3, std::move(ready.write_end));
    Child child(std::move(options));
    LineInput ready_in(std::move(ready.read_end));
    REQUIRE(ready_in.ReadLine(DefaultDeadline()));
    WriteAll(in.write_end.Get(), "data on stdin is ignored\n");
    in.write_end.Reset();
    ExitResult r = child.Wait();
    CAPTURE(r.err);
    CHECK(r.code == 0);
    CHECK(CheckCleanRecording(out, "stop-fd") >= 2);
  }

  TEST_CASE("SIGINT and SIGTERM stop cleanly") {
    int signo = SIGINT;
    const char* name = "SIGINT";
    SUBCASE("SIGINT") {}
    SUBCASE("SIGTERM") {
      signo = SIGTERM;
      name = "SIGTERM";
    }
    SUBCASE("SIGHUP (a dropped ssh session)") {
      signo = SIGHUP;
      name = "SIGHUP";
      struct sigaction hup;
      sigaction(SIGHUP, nullptr, &hup);
      if (hup.sa_handler == SIG_IGN) {  // inherited by the recorder: nohup
        MESSAGE("skipped: SIGHUP is ignored here, as under nohup");
        return;
      }
    }
    std::string signal_name = name;
    CAPTURE(signal_name);
    TempDir dir;
    std::string out = dir / "out.pgr.gz";
    Session s({"record", "-l", out, "-i", "0.1"});
    s.ReadReadyLine();
    s.child().Signal(signo);
    ExitResult r = s.Wait();
    CAPTURE(r.err);
    CHECK(r.code == 0);
    CHECK(r.signal == 0);
    CHECK(CheckCleanRecording(out, name) >= 2);
    CHECK(GzipTest(out) == 0);
  }

  // PerfMonger's rule: a sample scheduled less than 10 ms before the
  // deadline is the last one, so -t T -i I gives T/I + 1 samples.
  TEST_CASE("--timeout stops by itself after T/I + 1 samples") {
    const char* timeout = "1";
    size_t expected = 11;
    SUBCASE("-i 0.1 -t 1") {}
    SUBCASE("-i 0.1 -t 3") {
      timeout = "3";
      expected = 31;
    }
    std::string t = timeout;
    CAPTURE(t);
    TempDir dir;
    std::string out = dir / "out.pgr.gz";
    ExitResult r = Run({"record", "-l", out, "-i", "0.1", "-t", timeout});
    CAPTURE(r.err);
    CHECK(r.code == 0);
    CHECK(CheckCleanRecording(out, "timeout") == expected);
    CHECK(GzipTest(out) == 0);
  }
}

}  // namespace
}  // namespace pm::test

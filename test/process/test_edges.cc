// Edges of the lifecycle: a start delay cut short or commanded, a parent
// that closed the recorder's stdio or gave it as the ready fd, an interval
// below the clock tick.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>

#include "common/io.hh"
#include "test/process/recording.hh"

namespace pm::test {
namespace {

TEST_SUITE("edges") {
  TEST_CASE("stopped during --start-delay: header and end, no samples, no ready line") {
    TempDir dir;
    std::string out = dir / "out.pgr.gz";
    Session session({"record", "-l", out, "-s", "60"});
    session.CloseStop();
    // The ready fd closes without a line: the window never opened.
    CHECK(session.ready().ReadLine(DefaultDeadline()) == std::nullopt);
    ExitResult r = session.Wait();
    CAPTURE(r.err);
    CHECK(r.code == 0);
    Recording rec = ReadRecording(out);
    REQUIRE(rec.lines.size() == 2);
    CHECK(Json(rec.lines[0]).Str("format") == "perfmonger-pgr");
    Json end(rec.lines[1]);
    CHECK(end.Str("event") == "end");
    CHECK(end.Int("samples") == 0);
  }

  TEST_CASE("a recorder started with stdio closed keeps its recording clean") {
    TempDir dir;
    std::string out = dir / "out.pgr";
    // The shell closes stdout and stderr, then becomes the recorder: the
    // banner and any message must not land in a file the recorder opened.
    ExitResult r = Run({"-c", "exec >&- 2>&- \"$0\" record -i 0.05 -t 0.2 -l \"$1\"",
                        PerfmongerPath(), out},
                       "/bin/sh");
    CHECK(r.code == 0);
    Recording rec = ReadRecording(out);
    REQUIRE(rec.lines.size() >= 3);
    for (const std::string& line : rec.lines) {
      CAPTURE(line);
      CHECK(line.rfind("{", 0) == 0);
    }
    CHECK(Json(rec.lines.back()).Str("reason") == "timeout");
  }

  // A reply must be true: nothing can be written before the start.
  TEST_CASE("mark and sample during --start-delay: refused with not_started") {
    TempDir dir;
    std::string out = dir / "out.pgr";
    CommandSession s({"record", "-l", out, "-s", "60"});
    for (const char* cmd : {"mark early", "sample"}) {
      Json reply = s.Command(cmd);
      CAPTURE(reply.text());
      CHECK_FALSE(bool(reply.root()["ok"]));
      CHECK(reply.Str("error") == "not_started");
    }
    Json ping = s.Command("ping");
    CHECK(ping.Str("state") == "delayed");
    CHECK(ping.Int("samples") == 0);
    s.Command("stop");
    ExitResult r = s.Wait();
    CAPTURE(r.err);
    CHECK(r.code == 0);
    Recording rec = ReadRecording(out);
    REQUIRE(rec.lines.size() == 2);  // header and end: no mark was written
    CHECK(Json(rec.lines[1]).Str("event") == "end");
  }

  // The pause must be read during the delay: a margin of seconds.
  TEST_CASE("pause during --start-delay: the recording starts paused") {
    TempDir dir;
    std::string out = dir / "out.pgr";
    CommandSession s({"record", "-l", out, "-s", std::to_string(PM_TEST_MARGIN_S), "-i",
                      "0.05"});
    Json pause = s.Command("pause");
    REQUIRE(pause.Str("state") == "delayed");
    CHECK(bool(pause.root()["ok"]));
    CHECK(bool(pause.root()["changed"]));
    CHECK(Json(s.ReadReadyLine()).Str("state") == "paused");
    CHECK(s.Command("status").Int("samples") == 0);
    s.Command("stop");
    CHECK(s.Wait().code == 0);
    CHECK(CountSampleLines(ReadRecording(out)) == 0);
  }

  // After the ready line fd 2 must stay taken: freed, the next open()
  // would get it and later messages would land in that file.
  TEST_CASE("--ready-fd 2: the line, EOF, then fd 2 is /dev/null") {
    TempDir dir;
    std::string out = dir / "out.pgr";
    Pipe ready = MakePipe();
    Pipe stop = MakePipe();
    SpawnOptions options;
    options.args = {"record", "-l", out, "-i", "0.05", "--ready-fd", "2", "--stop-fd", "4"};
    options.fds.emplace_back(2, std::move(ready.write_end));
    options.fds.emplace_back(4, std::move(stop.read_end));
    Child child(std::move(options));
    LineInput ready_in(std::move(ready.read_end));
    std::string all = ready_in.ReadToEof(DefaultDeadline());
    CHECK(all.rfind("{\"event\":\"ready\"", 0) == 0);
    CHECK(SplitLines(all).size() == 1);
    std::string fd2 = "/proc/" + std::to_string(child.pid()) + "/fd/2";
    std::error_code ec;
    CHECK(std::filesystem::read_symlink(fd2, ec).string() == "/dev/null");
    CHECK_FALSE(ec);
    stop.write_end.Reset();
    ExitResult r = child.Wait();
    CHECK(r.code == 0);
    CheckCleanRecording(out, "stop-fd");
  }

  TEST_CASE("an interval below the clock tick: one warning at the start") {
    long tick_ms = 1000 / sysconf(_SC_CLK_TCK);
    TempDir dir;
    std::string below = std::to_string(tick_ms > 1 ? tick_ms / 2 : 1) + "ms";
    ExitResult r = Run({"record", "-l", dir / "a.pgr", "-i", below, "-t", "50ms"});
    CAPTURE(r.err);
    CHECK(r.code == 0);
    CHECK(r.err.find("warning: the interval") != std::string::npos);
    CHECK(r.err.find("below the kernel's clock tick") != std::string::npos);
    r = Run({"record", "-l", dir / "b.pgr", "-i", std::to_string(tick_ms) + "ms", "-t",
             "50ms"});
    CAPTURE(r.err);
    CHECK(r.code == 0);
    CHECK(r.err.find("warning") == std::string::npos);
  }
}

}  // namespace
}  // namespace pm::test

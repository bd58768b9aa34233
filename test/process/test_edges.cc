// Edges of the lifecycle: a start delay cut short, a parent that closed
// the recorder's stdio.
#include <doctest/doctest.h>

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
}

}  // namespace
}  // namespace pm::test

// The seed's §7 C recipe, as a C program a DBMS would write, end to end.
#include <doctest/doctest.h>


#include "test/process/recording.hh"
#include "test/process/text_shapes.hh"

namespace pm::test {
namespace {

TEST_SUITE("embedding") {
  TEST_CASE("the C recipe: ready line, clean stop, meta in the header") {
    TempDir dir;
    std::string out = dir / "q42.pgr.gz";
    ExitResult r = Run({PerfmongerPath(), out, "sql=SELECT%20*%20FROM%20t%20WHERE%20id%3D42"},
                       HarnessPath());
    CAPTURE(r.err);
    CHECK(r.code == 0);

    std::vector<std::string> lines = SplitLines(r.out);
    REQUIRE(lines.size() == 1);
    CHECK(r.out.back() == '\n');
    Json ready(lines[0]);
    CHECK(ready.Str("event") == "ready");
    CHECK(ready.Int("version") == 1);
    CHECK(ready.Int("pid") > 0);
    CHECK(ready.Str("output") == out);
    CHECK(IsRfc3339Utc(ready.Str("start_time")));

    Recording rec = ReadRecording(out);
    CHECK(rec.compression == Compression::kGzip);
    REQUIRE(rec.lines.size() >= 3);
    Json header(rec.lines.front());
    CHECK(std::string_view(header.root()["meta"]["sql"]) ==
          "SELECT * FROM t WHERE id=42");
    CHECK(CheckCleanRecording(out, "stop-fd") >= 2);
  }
}

}  // namespace
}  // namespace pm::test

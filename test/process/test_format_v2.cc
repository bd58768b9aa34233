// record --format-version 2 on the real /proc, read back by play and cat:
// the file holds difference lines, cat prints them as v1 (absolute,
// increasing clocks), and play reads the v2 file as it reads cat's v1.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "test/process/fake_proc.hh"

namespace pm::test {
namespace {

// `samples` samples of the real /proc, however loaded the machine: no
// tick (-i 3600), the first sample, `sample` commands, the stop's last.
// A CPU tick passes before each command, so that no pair is of zero width.
void RecordSamples(const std::string& path, const char* version, int samples) {
  CommandSession s({"record", "--format-version", version, "-i", "3600", "-l", path});
  s.ReadReadyLine();
  for (int k = 2; k < samples; ++k) {
    AwaitCpuTick();
    REQUIRE(bool(s.Command("sample").root()["ok"]));
  }
  s.CloseStop();
  ExitResult r = s.Wait();
  CAPTURE(r.err);
  REQUIRE(r.code == 0);
}

TEST_SUITE("format v2") {
  TEST_CASE("a v2 recording: difference lines on disk, v1 lines from cat, same play") {
    TempDir tmp;
    std::string path = tmp / "v2.pgr.zst";
    RecordSamples(path, "2", 40);
    Recording file = ReadRecording(path);
    REQUIRE(file.lines.size() == 42);
    CHECK(Json(file.lines[0]).Int("version") == 2);
    CHECK(file.difference_lines > 0);

    ExitResult cat = Run({"cat", path});
    CAPTURE(cat.err);
    REQUIRE(cat.code == 0);
    std::vector<std::string> lines = SplitLines(cat.out);
    REQUIRE(lines.size() == file.lines.size());
    CHECK(Json(lines[0]).Int("version") == 1);
    int64_t last_mono = 0;
    for (size_t i = 1; i < lines.size(); ++i) {
      Json line(lines[i]);
      CHECK_FALSE(line.Has("d"));
      if (line.Has("event")) continue;
      CHECK(line.Int("mono") > last_mono);  // absolute again, not differences
      CHECK(line.root()["cpu"].at(0).array().size() == 10);
      last_mono = line.Int("mono");
    }

    ExitResult play_v2 = Run({"play", path});
    ExitResult play_v1 = PendingRun({"play"}, cat.out).child.Wait();
    CHECK(play_v2.code == 0);
    CHECK(play_v2.out == play_v1.out);
    // The stop's sample may come within a tick: only that warning, if any.
    for (const std::string& line : SplitLines(play_v2.err))
      CHECK(line.find("taken before a CPU tick passed") != std::string::npos);
  }

  TEST_CASE("cat prints a v1 recording byte for byte; other input is refused") {
    TempDir tmp;
    std::string path = tmp / "v1.pgr";
    RecordSamples(path, "1", 5);
    ExitResult cat = Run({"cat", path});
    CHECK(cat.code == 0);
    CHECK(cat.out == ReadFileBytes(path));
    ExitResult gob = Run({"cat", LegacyFile("busy100.pgr")});
    CHECK(gob.code == 2);
    CHECK(gob.err.find("use play or summary") != std::string::npos);
    CHECK(Run({"cat", tmp / "missing.pgr"}).code == 1);
  }

  TEST_CASE("cat and play skip a corrupt v2 line up to the next keyframe, say so, exit 2") {
    TempDir tmp;
    std::string path = tmp / "v2.pgr";
    RecordSamples(path, "2", 30);
    std::vector<std::string> lines = SplitLines(ReadFileBytes(path));
    REQUIRE(lines.size() == 32);
    REQUIRE(lines[5].starts_with("{\"d\":1,"));  // 64 samples to a keyframe
    lines[5] = lines[5].substr(0, lines[5].size() / 2);
    std::string bytes;
    for (const std::string& line : lines) bytes += line + "\n";
    WriteFile(path, bytes);

    // The difference lines after it have no baseline: lost up to the end
    // event, which is read again.
    std::string lost = "warning: " + path + ": lines 6-" + std::to_string(lines.size() - 1) +
                       " lost (pgr line 6, byte ";
    std::string resumed = "; resumed at line " + std::to_string(lines.size()) + "\n";
    ExitResult cat = Run({"cat", path});
    CHECK(cat.code == 2);
    CHECK(cat.err.find(lost) != std::string::npos);
    CHECK(cat.err.find(resumed) != std::string::npos);
    std::vector<std::string> out = SplitLines(cat.out);
    CHECK(out.size() < lines.size());
    CHECK(out.size() >= 6);  // the header, the lines before the cut, the end event
    for (const std::string& line : out) CHECK_FALSE(line.starts_with("{\"d\""));

    ExitResult play = Run({"play", path});
    CHECK(play.code == 2);
    CHECK_FALSE(play.out.empty());  // the pairs before the damage
    CHECK(play.err.find(lost) != std::string::npos);
    CHECK(play.err.find(resumed) != std::string::npos);
  }

  TEST_CASE("--format-version takes 1 or 2") {
    ExitResult r = Run({"record", "--format-version", "3", "-l", "/nonexistent/x.pgr"});
    CHECK(r.code == 1);
    CHECK(r.err.find("--format-version '3': write 1 or 2") != std::string::npos);
  }
}

}  // namespace
}  // namespace pm::test

// --cgroup on this machine's cgroup v2 hierarchy, when it has a writable
// one (root; /sys/fs/cgroup or a hybrid host's /sys/fs/cgroup/unified): a
// CPU hog in one group shows in that group's CPU, not in its sibling's; a
// group removed mid-recording turns null.
#include <doctest/doctest.h>
#include <filesystem>
#include <string>
#include <vector>

#include "test/process/cgroup_group.hh"
#include "test/process/recording.hh"

namespace pm::test {
namespace {

int64_t Usage(const Json& sample, size_t row) {
  const JsonValue& r = sample.root()["cgroups"].at(row);
  return r.type() == JsonValue::Type::kNull ? -1 : int64_t(r.at(0));
}

}  // namespace

TEST_SUITE("collectors on the real machine") {
  TEST_CASE("--cgroup that does not exist: exit 1, one line naming it, nothing written") {
    TempDir dir;
    ExitResult r = Run({"record", "-l", dir / "x.pgr", "-t", "1", "--cgroup",
                        "perfmonger-no-such-group"});
    CHECK(r.code == 1);
    CHECK(r.err.rfind("perfmonger record: error: --cgroup perfmonger-no-such-group: no cgroup v2 ",
                      0) == 0);
    CHECK(SplitLines(r.err).size() == 1);
    CHECK_FALSE(std::filesystem::exists(dir / "x.pgr"));
  }

  TEST_CASE("--cgroup: a CPU hog shows in its own group's CPU, not in its sibling's") {
    TestGroup group;
    if (!group.made) {
      MESSAGE("skipped: no writable cgroup v2 hierarchy here (root, /sys/fs/cgroup[/unified])");
      return;
    }
    REQUIRE(::mkdir((group.path + "/a").c_str(), 0755) == 0);
    REQUIRE(::mkdir((group.path + "/b").c_str(), 0755) == 0);
    TempDir dir;
    std::string out = dir / "c.pgr";
    CommandSession s({"record", "-l", out, "-i", "3600", "--cgroup", group.name + "/a",
                      "--cgroup", group.path + "/b"});
    s.ReadReadyLine();
    // The hog moves itself into a, then spins for a while and exits.
    SpawnOptions hog;
    hog.program = "/bin/sh";
    hog.args = {"-c", "echo $$ > " + group.path +
                          "/a/cgroup.procs && exec /bin/sh -c 'i=0; while [ $i -lt 200000 ]; "
                          "do i=$((i+1)); done'"};
    ExitResult h = Child(std::move(hog)).Wait(After(std::chrono::seconds(60)));
    REQUIRE(h.code == 0);
    CHECK(bool(s.Command("sample").root()["ok"]));
    REQUIRE(::rmdir((group.path + "/b").c_str()) == 0);  // b removed while recorded
    CHECK(bool(s.Command("sample").root()["ok"]));
    s.CloseStop();
    ExitResult r = s.Wait();
    CHECK(r.code == 0);
    CHECK(r.err.find("note: cgroup " + group.path + "/b is gone") != std::string::npos);
    Recording rec = ReadRecording(out);
    std::vector<std::string> samples;  // without the scans of everyone else and the end
    for (size_t i = 1; i < rec.lines.size(); ++i)
      if (!Json(rec.lines[i]).Has("event")) samples.push_back(rec.lines[i]);
    REQUIRE(samples.size() >= 3);
    Json first(samples[0]), after_hog(samples[1]), after_rmdir(samples[2]);
    CHECK(Usage(after_hog, 0) - Usage(first, 0) >= 50'000);  // ≥ 50 ms of CPU in a
    CHECK(Usage(after_hog, 1) - Usage(first, 1) == 0);        // none in b
    CHECK(Usage(after_rmdir, 1) == -1);
    ExitResult play = Run({"play", out});
    REQUIRE(play.code == 0);
    Json line(SplitLines(play.out).front());
    CHECK(double(line.root()["cgroups"][group.name + "/a"]["cpu"]) > 0.0);
    CHECK(double(line.root()["cgroups"][group.path + "/b"]["cpu"]) == 0.0);
    CHECK(line.root()["cgroups"][group.name + "/a"]["devices"].is_object());
  }
}

}  // namespace pm::test

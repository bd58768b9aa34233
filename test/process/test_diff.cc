// `perfmonger diff` on real recordings of this machine: a recording
// compared with itself flags nothing; `stat -- dd ... oflag=direct` of
// 64 MiB against 128 MiB, three runs each, flags the disk's bytes written
// as doubled with an interval that holds 2x; collector sets that differ
// compare on what they share; the command line's errors.
#include <doctest/doctest.h>

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "test/process/fake_proc.hh"
#include "test/process/recording.hh"

namespace pm::test {
namespace {

// `stat` of one dd writing `mib` MiB with O_DIRECT into `dir`, sampled
// every 10 ms, into `path`; false when the file system refuses O_DIRECT.
bool RecordDd(const TempDir& dir, const std::string& path, int mib, const std::string& disk) {
  std::vector<std::string> args = {"stat", "-i", "10ms", "--no-net", "-l", path};
  if (!disk.empty()) args.insert(args.end(), {"-d", disk});
  args.insert(args.end(), {"--", "dd", "if=/dev/zero", "of=" + (dir / "dd.out"), "bs=1M",
                           "count=" + std::to_string(mib), "oflag=direct"});
  const ExitResult r = Run(args);
  CAPTURE(r.err);
  REQUIRE(r.signal == 0);
  return r.code == 0;
}

// What the disk wrote during the recording at `path` (MiB), as diff
// totals it.
double WrittenMiB(const std::string& path, const std::string& disk) {
  const ExitResult r = Run({"diff", "--json", "--series", "disk." + disk + ".wmibps.total",
                            path, path});
  REQUIRE(r.code == 0);
  const Json diff(r.out);
  REQUIRE(diff.root()["series"].array().size() == 1);
  return double(diff.root()["series"].array()[0]["a"]["mean"]);
}

// A run of dd on a quiet disk: recorded again (six tries) while another
// process (another test's O_DIRECT burst, a build) wrote more than 4 MiB
// beside it, which would measure the neighbour, not dd.
bool RecordQuietDd(const TempDir& dir, const std::string& path, int mib,
                   const std::string& disk) {
  for (int attempt = 0; attempt < 6; ++attempt) {
    if (!RecordDd(dir, path, mib, disk)) return false;
    const double written = WrittenMiB(path, disk);
    if (written < mib + 4) return true;
    MESSAGE("a neighbour wrote beside dd: " << written << " MiB for " << mib << "; again");
  }
  return true;  // the comparison will show the noise
}

const JsonValue* FindRow(const Json& diff, const std::string& series) {
  for (const JsonValue& row : diff.root()["series"].array())
    if (std::string_view(row["series"]) == series) return &row;
  return nullptr;
}

}  // namespace

TEST_SUITE("diff") {
  TEST_CASE("a recording compared with itself flags nothing, one run or three a side") {
    TempDir dir;
    const std::string path = dir / "self.pgr";
    RecordDd(dir, path, 4, DiskOf(dir.path()));  // O_DIRECT or not, a recording
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"diff", "--json", path, path},
          std::vector<std::string>{"diff", "--json", path, path, path, "--", path, path, path}}) {
      ExitResult r = Run(args);
      CAPTURE(r.err);
      REQUIRE(r.code == 0);
      const Json diff(r.out);
      CHECK(int64_t(diff.root()["tests"]) > 10);
      CHECK(int64_t(diff.root()["significant"]) == 0);
      for (const JsonValue& row : diff.root()["series"].array()) {
        CHECK(double(row["change"]) == 0.0);
        CHECK_FALSE(bool(row["significant"]));
      }
    }
    ExitResult text = Run({"diff", "--fail-on", "*>-100%", path, path});
    CHECK(text.code == 0);  // nothing significant passes any rule
    CHECK(text.out.find("0 significant") != std::string::npos);
    CHECK(text.out.find("within-run") != std::string::npos);
  }

  TEST_CASE("dd of 64 MiB against 128 MiB, three runs each: bytes written doubled") {
    TempDir dir;
    const std::string disk = DiskOf(dir.path());
    if (disk.empty()) {
      MESSAGE("skipped: " << dir.path() << " is on no disk");
      return;
    }
    std::vector<std::string> a, b;
    for (int i = 0; i < 3; ++i) {
      a.push_back(dir / ("a" + std::to_string(i) + ".pgr"));
      b.push_back(dir / ("b" + std::to_string(i) + ".pgr"));
      if (!RecordQuietDd(dir, a.back(), 64, disk) || !RecordQuietDd(dir, b.back(), 128, disk)) {
        MESSAGE("skipped: " << dir.path() << " refuses O_DIRECT");
        return;
      }
    }
    std::vector<std::string> args = {"diff", "--json"};
    args.insert(args.end(), a.begin(), a.end());
    args.push_back("--");
    args.insert(args.end(), b.begin(), b.end());
    ExitResult r = Run(args);
    CAPTURE(r.err);
    REQUIRE(r.code == 0);
    const Json diff(r.out);
    CHECK(std::string_view(diff.root()["mode"]) == "run-level");
    const JsonValue* written = FindRow(diff, "disk." + disk + ".wmibps.total");
    REQUIRE(written != nullptr);
    CAPTURE(double((*written)["a"]["mean"]));
    CAPTURE(double((*written)["b"]["mean"]));
    CHECK(std::string_view((*written)["unit"]) == "MiB");
    CHECK(bool((*written)["significant"]));
    CHECK(double((*written)["ratio_low"]) <= 2.0);
    CHECK(double((*written)["ratio_high"]) >= 2.0);
    CHECK(double((*written)["a"]["mean"]) >= 64.0);  // dd's, and whatever else wrote

    // The same as CI sees it: exit 3, the change named on stderr.
    args[1] = "--fail-on=disk.*.wmibps.total>+50%";
    ExitResult ci = Run(args);
    CHECK(ci.code == 3);
    CHECK(ci.err.find("disk." + disk + ".wmibps.total") != std::string::npos);
  }

  TEST_CASE("different collector sets compare on what they share, and say what not") {
    TempDir dir;
    const std::string with = dir / "with.pgr", without = dir / "without.pgr";
    REQUIRE(Run({"stat", "-i", "10ms", "-l", with, "--", "true"}).code == 0);
    REQUIRE(Run({"stat", "-i", "10ms", "--no-disk", "-l", without, "--", "true"}).code == 0);
    ExitResult r = Run({"diff", "--json", with, without});
    CAPTURE(r.err);
    REQUIRE(r.code == 0);
    const Json diff(r.out);
    CHECK(FindRow(diff, "cpu.all.usr") != nullptr);
    bool disk_listed = false;
    for (const auto& [name, why] : diff.root()["series_not_compared"].object()) {
      if (name.rfind("disk.", 0) == 0) disk_listed = true;
      CHECK(std::string_view(why) == "only in A");
    }
    CHECK(disk_listed);
    ExitResult text = Run({"diff", with, without});
    CHECK(text.out.find("Not compared, only in A: ") != std::string::npos);
  }

  TEST_CASE("--align time: phases cut where the first run has its marks, others' ignored") {
    TempDir dir;
    const std::string marked = dir / "marked.pgr", plain = dir / "plain.pgr";
    {
      CommandSession s({"record", "-i", "10ms", "--no-net", "-l", marked});
      s.ReadReadyLine();
      AwaitCpuTick();
      REQUIRE(bool(s.Command("mark load").root()["ok"]));
      AwaitCpuTick();
      REQUIRE(bool(s.Command("sample").root()["ok"]));
      s.CloseStop();
      REQUIRE(s.Wait().code == 0);
    }
    REQUIRE(Run({"stat", "-i", "10ms", "--no-net", "-l", plain, "--", "true"}).code == 0);
    auto phases = [](const Json& diff) {
      std::set<std::string> out;
      for (const JsonValue& row : diff.root()["series"].array())
        out.insert(std::string(std::string_view(row["phase"])));
      return out;
    };
    ExitResult by_label = Run({"diff", "--json", marked, plain});
    CAPTURE(by_label.err);
    REQUIRE(by_label.code == 0);
    const Json label(by_label.out);
    CHECK(phases(label) == std::set<std::string>{"start"});
    REQUIRE(label.root()["phases_not_compared"].array().size() == 1);
    CHECK(std::string_view(label.root()["phases_not_compared"].array()[0]) ==
          "phase 'load': only in A");
    // By time, the first run's marks cut every run: a run without marks
    // as A leaves B's marks unused, one phase against the whole of B.
    ExitResult whole = Run({"diff", "--json", "--align", "time", plain, marked});
    CAPTURE(whole.err);
    REQUIRE(whole.code == 0);
    const Json time(whole.out);
    CHECK(time.root()["phases_not_compared"].array().empty());
    CHECK(phases(time) == std::set<std::string>{"start"});
    // A run cut at its own marks' times has its phases back.
    ExitResult self = Run({"diff", "--json", "--align", "time", marked, marked});
    REQUIRE(self.code == 0);
    CHECK(phases(Json(self.out)).count("load") == 1);
  }

  // The runs are read on a thread per core: what each file says still
  // comes in the files' order, and the first file's error wins.
  TEST_CASE("runs read on threads: warnings in the files' order, the first file's error") {
    FakeProc fake(CountersAt(0));
    TempDir dir;
    const std::string path = dir / "r.pgr";
    // Version 1: a cut line ends the read with a warning.
    std::vector<FakeCounters> counters;
    for (uint64_t k = 0; k < 6; ++k) counters.push_back(CountersAt(k));
    RecordFake(fake, path, counters, {"--format-version", "1"});
    const std::string bytes = ReadFileBytes(path);
    size_t cut = 0;  // inside the fourth sample line: 3 samples, a warning
    for (int i = 0; i < 4; ++i) cut = bytes.find('\n', cut) + 1;
    std::vector<std::string> args = {"diff"}, names;
    for (const char* name : {"a1", "a2", "a3", "--", "b1", "b2", "b3"}) {
      args.push_back(name[0] == '-' ? name : dir / (std::string(name) + ".pgr"));
      if (name[0] == '-') continue;
      names.push_back(args.back());
      WriteFile(args.back(), bytes.substr(0, cut + 20));
    }
    const ExitResult r = Run(args);
    CAPTURE(r.err);
    CHECK(r.code == 0);
    size_t at = 0;
    for (const std::string& name : names) {
      at = r.err.find("warning: " + name + ": recording truncated after 3 samples", at);
      CHECK_MESSAGE(at != std::string::npos, name);
    }
    const ExitResult missing =
        Run({"diff", names[0], dir / "gone1.pgr", "--", names[3], dir / "gone2.pgr"});
    CHECK(missing.code == 1);
    CHECK(missing.err.find("gone1.pgr") != std::string::npos);
    CHECK(missing.err.find("gone2.pgr") == std::string::npos);
  }

  TEST_CASE("usage errors: one line naming the fix, exit 1") {
    TempDir dir;
    const std::string path = dir / "r.pgr";
    REQUIRE(Run({"stat", "-i", "10ms", "-l", path, "--", "true"}).code == 0);
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"diff", path},
          std::vector<std::string>{"diff", path, path, path},
          std::vector<std::string>{"diff", "--fail-on", "disk.*", path, path},
          std::vector<std::string>{"diff", "--fdr", "2", path, path},
          std::vector<std::string>{"diff", "--align", "when", path, path},
          std::vector<std::string>{"diff", path, dir / "missing.pgr"}}) {
      ExitResult r = Run(args);
      CAPTURE(args.back());
      CAPTURE(r.err);
      CHECK(r.code == 1);
      CHECK(r.err.rfind("perfmonger diff: error: ", 0) == 0);
      CHECK(r.err.find('\n') == r.err.size() - 1);
      CHECK(r.out.empty());
    }
  }
}

}  // namespace pm::test

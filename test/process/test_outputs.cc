// What lands on disk: the codec chosen by name, the header a reader relies
// on, and many recordings side by side.
#include <doctest/doctest.h>

#include <filesystem>
#include <set>

#include "test/process/recording.hh"

namespace pm::test {
namespace {

int CpuLinesInProcStat() {
  int n = 0;
  for (const std::string& line : SplitLines(ReadFileBytes("/proc/stat")))
    if (line.size() > 3 && line.rfind("cpu", 0) == 0 && std::isdigit(line[3])) ++n;
  return n;
}

// A short recording in `dir`; returns its header and first sample.
std::pair<Json, Json> HeaderAndSample(const TempDir& dir,
                                      std::vector<std::string> args) {
  std::string out = dir / "out.pgr.gz";
  std::vector<std::string> all = {"record", "-l", out};
  all.insert(all.end(), args.begin(), args.end());
  ExitResult r = RecordBriefly(all);
  CAPTURE(r.err);
  REQUIRE(r.code == 0);
  Recording rec = ReadRecording(out);
  REQUIRE(rec.lines.size() >= 2);
  return {Json(rec.lines[0]), Json(rec.lines[1])};
}

bool HasCollector(const Json& header, const std::string& name) {
  return header.root()["collectors"][name].exists();
}

TEST_SUITE("outputs") {
  TEST_CASE("the output name picks the codec") {
    struct Case {
      std::vector<std::string> args;
      std::string file;
      std::string starts_with;
    };
    const std::string plain = "{\"format\":\"perfmonger-pgr\"";
    for (const Case& c : std::vector<Case>{
             {{"-l", "x.pgr.gz"}, "x.pgr.gz", "\x1f\x8b"},
             {{"-l", "x.pgr.zst"}, "x.pgr.zst", "\x28\xb5\x2f\xfd"},
             {{"-l", "x.pgr"}, "x.pgr", plain},
             {{"--no-gzip", "-l", "x.pgr.gz"}, "x.pgr.gz", plain},
             {{"--no-gzip"}, "perfmonger.pgr", plain},
             {{}, "perfmonger.pgr.gz", "\x1f\x8b"},
         }) {
      CAPTURE(c.file);
      TempDir dir;
      std::vector<std::string> args = {"record", "-i", "0.1"};
      args.insert(args.end(), c.args.begin(), c.args.end());
      ExitResult r = RecordBriefly(args, dir.path());
      CAPTURE(r.err);
      CHECK(r.code == 0);
      std::string bytes = ReadFileBytes(dir / c.file);
      CHECK(bytes.rfind(c.starts_with, 0) == 0);
      CheckCleanRecording(dir / c.file, "stop-fd");
    }
  }

  TEST_CASE("header: format, version, cores, interval, empty meta") {
    TempDir dir;
    auto [header, sample] = HeaderAndSample(dir, {"-i", "0.25"});
    CHECK(header.Str("format") == "perfmonger-pgr");
    CHECK(header.Int("version") == 1);
    CHECK(header.Int("num_core") == CpuLinesInProcStat());
    CHECK(header.Int("interval_ns") == 250'000'000);
    REQUIRE(header.root()["meta"].is_object());
    CHECK(header.root()["meta"].object().empty());
  }

  TEST_CASE("interval as a duration with a unit") {
    TempDir dir;
    auto [header, sample] = HeaderAndSample(dir, {"-i", "500ms"});
    CHECK(header.Int("interval_ns") == 500'000'000);
  }

  TEST_CASE("meta pairs keep their order and decode") {
    TempDir dir;
    auto [header, sample] = HeaderAndSample(
        dir, {"--meta", "query_id=q42", "--meta", "a%3Db=x=y%20z"});
    std::vector<std::pair<std::string, std::string>> meta;
    for (const auto& [key, value] : header.root()["meta"].object())
      meta.emplace_back(key, std::string_view(value));
    CHECK(meta == std::vector<std::pair<std::string, std::string>>{
                      {"query_id", "q42"}, {"a=b", "x=y z"}});
  }

  TEST_CASE("collectors: defaults, --record-intr, --no-*") {
    TempDir dir;
    SUBCASE("defaults: cpu proc disk net mem, no intr") {
      auto [header, sample] = HeaderAndSample(dir, {});
      for (std::string name : {"cpu", "proc", "disk", "net", "mem"}) {
        CAPTURE(name);
        CHECK(HasCollector(header, name));
        CHECK(sample.Has(name));
      }
      CHECK_FALSE(HasCollector(header, "intr"));
      CHECK_FALSE(sample.Has("intr"));
    }
    SUBCASE("--record-intr adds intr") {
      auto [header, sample] = HeaderAndSample(dir, {"--record-intr"});
      CHECK(HasCollector(header, "intr"));
      CHECK(sample.Has("intr"));
    }
    SUBCASE("--no-cpu --no-disk --no-net --no-mem") {
      auto [header, sample] = HeaderAndSample(
          dir, {"--no-cpu", "--no-disk", "--no-net", "--no-mem"});
      for (std::string name : {"cpu", "disk", "net", "mem"}) {
        CAPTURE(name);
        CHECK_FALSE(HasCollector(header, name));
        CHECK_FALSE(sample.Has(name));
      }
      CHECK(sample.Has("t"));
    }
  }

  TEST_CASE("32 concurrent recordings, no session pidfile") {
    TempDir dir;
    constexpr int kSessions = 32;
    std::vector<std::unique_ptr<Session>> sessions;
    for (int i = 0; i < kSessions; ++i)
      sessions.push_back(std::make_unique<Session>(
          std::vector<std::string>{"record", "-i", "0.1", "-l",
                                   dir / ("rec-" + std::to_string(i) + ".pgr.gz")},
          "", std::vector<std::string>{"TMPDIR=" + dir.path()}));
    std::set<int64_t> pids;
    Deadline deadline = After(std::chrono::seconds(20));
    for (int i = 0; i < kSessions; ++i) {
      Json ready(sessions[i]->ReadReadyLine(deadline));
      CHECK(ready.Str("output") == dir / ("rec-" + std::to_string(i) + ".pgr.gz"));
      pids.insert(ready.Int("pid"));
    }
    CHECK(pids.size() == kSessions);
    for (auto& s : sessions) s->CloseStop();
    for (int i = 0; i < kSessions; ++i) {
      CAPTURE(i);
      ExitResult r = sessions[i]->child().Wait(deadline);
      CHECK(r.code == 0);
      CheckCleanRecording(dir / ("rec-" + std::to_string(i) + ".pgr.gz"), "stop-fd");
    }
    for (const auto& e : std::filesystem::directory_iterator(dir.path())) {
      std::string name = e.path().filename().string();
      CAPTURE(name);
      CHECK(name.rfind("rec-", 0) == 0);
    }
  }
}

}  // namespace
}  // namespace pm::test

// What lands on disk: the codec chosen by name, the header a reader relies
// on, many recordings side by side, outputs that are not regular files, one
// recorder per output, an output deleted under the recorder.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <set>

#include "common/io.hh"
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
    CHECK(header.Int("version") == 2);  // the default: differences, pgr(5)
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
    Deadline deadline = After(std::chrono::seconds(60));  // 32 starts, and as many exits
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

  // Pipes and character devices are valid outputs: no fsync error at close.
  TEST_CASE("-l - writes the recording to stdout") {
    TempDir dir;
    ExitResult r = Run({"record", "-l", "-", "-i", "0.05", "-t", "0.2"});
    CAPTURE(r.err);
    CHECK(r.code == 0);
    std::string copy = dir / "stdout.pgr";
    WriteAll(OpenAt(AT_FDCWD, copy, O_WRONLY | O_CREAT, 0600).Get(), r.out);
    CHECK(CheckCleanRecording(copy, "timeout") >= 2);
    CHECK_FALSE(std::filesystem::exists(dir / "-"));
  }

  TEST_CASE("/dev/null and /dev/stdout on a pipe: exit 0") {
    for (const char* path : {"/dev/null", "/dev/stdout"}) {
      CAPTURE(path);
      ExitResult r = Run({"record", "-l", path, "-i", "0.05", "-t", "0.1"});
      CAPTURE(r.err);
      CHECK(r.code == 0);
      CHECK(r.err.find("error") == std::string::npos);
      if (std::string(path) == "/dev/stdout")
        CHECK(Json(SplitLines(r.out).back()).Str("reason") == "timeout");
    }
  }

  TEST_CASE("a FIFO: read to its end; without a reader, a setup error") {
    TempDir dir;
    std::string fifo = dir / "fifo";
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    ExitResult lonely = Run({"record", "-l", fifo, "-i", "0.05", "-t", "0.1"});
    CHECK(lonely.code == 1);
    CHECK(lonely.err.find(fifo + " is a FIFO that nobody reads") != std::string::npos);

    LineInput reader(OpenAt(AT_FDCWD, fifo, O_RDONLY | O_NONBLOCK));
    SpawnOptions options;
    options.args = {"record", "-l", fifo, "-i", "0.05", "-t", "0.2"};
    Child child(std::move(options));
    std::string bytes = reader.ReadToEof(DefaultDeadline());
    ExitResult r = child.Wait();
    CAPTURE(r.err);
    CHECK(r.code == 0);
    std::vector<std::string> lines = SplitLines(bytes);
    REQUIRE(lines.size() >= 3);
    CHECK(Json(lines.front()).Str("format") == "perfmonger-pgr");
    CHECK(Json(lines.back()).Str("reason") == "timeout");
  }

  TEST_CASE("/dev/full: nothing could be written, a setup error") {
    ExitResult r = Run({"record", "-l", "/dev/full", "-i", "0.05", "-t", "0.1"});
    CAPTURE(r.err);
    CHECK(r.code == 1);
    CHECK(r.err.find("No space left on device") != std::string::npos);
    CHECK(r.err.find("kept") == std::string::npos);
  }

  TEST_CASE("a second recorder on the same output: exit 1 naming the first") {
    TempDir dir;
    std::string out = dir / "out.pgr.gz";
    Session first({"record", "-l", out, "-i", "0.05"});
    first.ReadReadyLine();
    size_t before = WaitForSamples(out, 2, DefaultDeadline());
    ExitResult second = Run({"record", "-l", out, "-i", "0.05", "-t", "0.1"});
    CAPTURE(second.err);
    CHECK(second.code == 1);
    CHECK(second.err.find("pid " + std::to_string(first.child().pid())) !=
          std::string::npos);
    CHECK(WaitForSamples(out, before + 2, DefaultDeadline()) >= before + 2);
    first.CloseStop();
    CHECK(first.Wait().code == 0);
    CheckCleanRecording(out, "stop-fd");  // not truncated, not interleaved
    CHECK(GzipTest(out) == 0);
  }

  TEST_CASE("the output deleted while recording: exit 2 naming it") {
    TempDir dir;
    std::string out = dir / "out.pgr";
    bool stop = false;
    std::string interval = "0.01";
    SUBCASE("noticed while sampling") {}
    SUBCASE("noticed at the stop") {
      stop = true;
      interval = "3600";
    }
    Session s({"record", "-l", out, "-i", interval});
    s.ReadReadyLine();
    REQUIRE(unlink(out.c_str()) == 0);
    if (stop) s.CloseStop();
    ExitResult r = s.Wait();  // without a stop: ends by itself
    CAPTURE(r.err);
    CHECK(r.code == 2);
    CHECK(SplitLines(r.err).size() == 1);
    CHECK(r.err.find(out + " was deleted while recording") != std::string::npos);
  }

  // Without O_APPEND the recorder writes on at its offset past the new end.
  TEST_CASE("the output truncated by another process while recording: exit 2 naming it") {
    TempDir dir;
    std::string out;
    bool stop = false;
    std::string interval = "0.01";
    SUBCASE("plain, noticed while sampling") { out = dir / "out.pgr"; }
    SUBCASE("gzip, noticed while sampling") { out = dir / "out.pgr.gz"; }
    SUBCASE("plain, noticed at the stop") {
      out = dir / "out.pgr";
      stop = true;
      interval = "3600";
    }
    CAPTURE(out);
    Session s({"record", "-l", out, "-i", interval});
    s.ReadReadyLine();
    REQUIRE(truncate(out.c_str(), 0) == 0);
    if (stop) s.CloseStop();
    ExitResult r = s.Wait();  // without a stop: ends by itself
    CAPTURE(r.err);
    CHECK(r.code == 2);
    CHECK(SplitLines(r.err).size() == 1);
    CHECK(r.err.find(out + " was truncated by another process while recording") !=
          std::string::npos);
  }
}

}  // namespace
}  // namespace pm::test

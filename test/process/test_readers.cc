// `play` and `summary` on the real binary: PerfMonger's golden outputs,
// a record -> play round trip checked against hand-computed rates, meta
// round trip, and the command lines.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "test/process/fake_proc.hh"

namespace pm::test {
namespace {

std::string AfterFirstLine(const std::string& text) {
  size_t nl = text.find('\n');
  return nl == std::string::npos ? "" : text.substr(nl + 1);
}

// A printed %.<decimals>f value against the exact one.
void CheckNear(const JsonValue& printed, double exact, int decimals) {
  double tolerance = 0.5 * std::pow(10.0, -decimals) + 1e-9 * std::fabs(exact);
  CHECK(std::fabs(double(printed) - exact) <= tolerance);
}

TEST_SUITE("readers") {
  TEST_CASE("play of PerfMonger's recording, plain and gzip, prints its golden output") {
    std::string played = ReadFileBytes(LegacyFile("busy100.pgr.played"));
    for (const char* name : {"busy100.pgr", "busy100.pgr.gz"}) {
      CAPTURE(name);
      ExitResult r = Run({"play", LegacyFile(name)});
      CAPTURE(r.err);
      CHECK(r.code == 0);
      CHECK(r.out == played);
      CHECK(r.err.find("error") == std::string::npos);
    }
  }

  TEST_CASE("play reads standard input, named '-' or not named") {
    std::string played = ReadFileBytes(LegacyFile("busy100.pgr.played"));
    std::string gz = ReadFileBytes(LegacyFile("busy100.pgr.gz"));
    for (std::vector<std::string> args : {std::vector<std::string>{"play", "-"},
                                          std::vector<std::string>{"play"}}) {
      ExitResult r = PendingRun(args, gz).child.Wait();
      CHECK(r.code == 0);
      CHECK(r.out == played);
    }
  }

  TEST_CASE("summary and summary --json print PerfMonger's golden outputs") {
    std::string file = LegacyFile("busy100.pgr");
    std::string text = ReadFileBytes(LegacyFile("busy100.pgr.summary"));
    for (const char* command : {"summary", "summarize"}) {
      ExitResult r = Run({command, file});
      CAPTURE(r.err);
      CHECK(r.code == 0);
      CHECK(r.out.starts_with("== performance summary of '" + file + "' ==\n"));
      CHECK(AfterFirstLine(r.out) == AfterFirstLine(text));
    }
    ExitResult json = Run({"summary", "--json", LegacyFile("busy100.pgr.gz")});
    CHECK(json.code == 0);
    CHECK(json.out == ReadFileBytes(LegacyFile("busy100.pgr.summary.json")));
  }

  // --all adds blocks after PerfMonger's text; Metadata comes last (as
  // --help says), and a value PerfMonger never recorded (MemAvailable) is
  // not shown as 0 kB.
  TEST_CASE("summary --all: PerfMonger's text, then ours, Metadata last") {
    std::string golden = ReadFileBytes(LegacyFile("small-all.pgr.summary"));
    ExitResult legacy = Run({"summary", "--all", LegacyFile("small-all.pgr.gz")});
    CHECK(legacy.code == 0);
    CHECK(AfterFirstLine(legacy.out).starts_with(AfterFirstLine(golden)));
    CHECK(legacy.out.find("* Average NETWORK usage: ") != std::string::npos);
    CHECK(legacy.out.find("* Memory usage (last sample)\n        mem total: ") !=
          std::string::npos);
    CHECK(legacy.out.find("mem available") == std::string::npos);

    FakeProc fake(CountersAt(0));
    TempDir dir;
    RecordFake(fake, dir / "m.pgr", {CountersAt(0), CountersAt(1)}, {"--meta", "run=7"});
    ExitResult native = Run({"summary", "--all", dir / "m.pgr"});
    CHECK(native.code == 0);
    CHECK(native.out.ends_with("\n\nMetadata:\n  run: 7\n\n"));
    CHECK(native.out.find("    mem available: ") != std::string::npos);
  }

  TEST_CASE("play -p, -c and -p -c print PerfMonger's golden layouts") {
    std::string file = LegacyFile("busy100.pgr");
    struct Style {
      std::vector<std::string> short_form, long_form;
      const char* golden;
    };
    for (const Style& style :
         {Style{{"-p"}, {"--pretty"}, "busy100.pgr.played.pretty"},
          Style{{"-c"}, {"--color"}, "busy100.pgr.played.color"},
          Style{{"-p", "-c"}, {"--pretty", "--color"}, "busy100.pgr.played.pretty-color"}}) {
      CAPTURE(style.golden);
      std::string golden = ReadFileBytes(LegacyFile(style.golden));
      for (std::vector<std::string> args : {style.short_form, style.long_form}) {
        args.insert(args.begin(), "play");
        args.push_back(file);
        ExitResult r = Run(args);
        CAPTURE(r.err);
        CHECK(r.code == 0);
        CHECK(r.out == golden);
      }
    }
    CHECK(Run({"play", file}).out.find('\x1b') == std::string::npos);
  }

  // Our recordings carry more than PerfMonger's (mem, events): the same
  // layout, the same JSON underneath, PerfMonger's width kept.
  TEST_CASE("a native recording plays through the same layout") {
    FakeProc fake(CountersAt(0));
    TempDir dir;
    RecordFake(fake, dir / "n.pgr", {CountersAt(0), CountersAt(1), CountersAt(2)});
    ExitResult compact = Run({"play", dir / "n.pgr"});
    ExitResult pretty = Run({"play", "-p", dir / "n.pgr"});
    ExitResult both = Run({"play", "-p", "-c", dir / "n.pgr"});
    REQUIRE(compact.code == 0);
    CHECK(pretty.code == 0);
    CHECK(both.code == 0);
    std::string squeezed, joined;
    for (char c : pretty.out)
      if (c != ' ' && c != '\n') squeezed.push_back(c);
    for (char c : compact.out)
      if (c != '\n') joined.push_back(c);
    CHECK(squeezed == joined);
    CHECK(pretty.out.find("\n \"mem\": {\"mem_total\": 8000000, \"mem_used\": ") !=
          std::string::npos);
    for (const std::string& line : SplitLines(pretty.out)) {
      CAPTURE(line);
      CHECK(line.size() <= 81);  // 79, 81 inside the cores array (PerfMonger's)
    }
    std::string plain;
    for (size_t i = 0; i < both.out.size(); ++i) {
      if (both.out[i] == '\x1b') i = both.out.find('m', i);
      else plain.push_back(both.out[i]);
    }
    CHECK(plain == pretty.out);
    CHECK(both.out.find("\x1b[31m\"mem_total\"\x1b[0m: \x1b[32m8000000\x1b[0m") !=
          std::string::npos);
  }

  TEST_CASE("record -> play: rates computed by hand from a fake /proc") {
    FakeCounters a;
    a.cpu_all = {100, 0, 100, 800, 0, 0, 0, 0, 0, 0};
    a.cpu0 = a.cpu1 = {50, 0, 50, 400, 0, 0, 0, 0, 0, 0};
    a.vda = {1000, 0, 8000, 500, 2000, 0, 32000, 1000, 0, 700, 1500};
    a.eth0 = {1'000'000, 100, 0, 0, 0, 0, 0, 0, 500'000, 50, 0, 0, 0, 0, 0, 0};
    FakeCounters b = a;
    b.cpu_all = {300, 0, 200, 1500, 0, 0, 0, 0, 0, 0};
    b.cpu0 = b.cpu1 = {150, 0, 100, 750, 0, 0, 0, 0, 0, 0};
    b.vda = {1500, 0, 12000, 750, 2250, 0, 36000, 1250, 0, 900, 1900};
    b.eth0 = {1'000'000 + 1024 * 300, 400, 0, 0, 0, 0, 0, 0, 500'000 + 2048 * 10, 60,
              0, 0, 0, 0, 0, 0};
    b.mem_total = 8'000'000;
    FakeProc fake(a);
    TempDir dir;
    std::string out = dir / "rt.pgr.zst";
    RecordFake(fake, out, {a, b}, {"--meta", "sql=SELECT%20*%20FROM%20t%20WHERE%20id%3D42"});

    Recording rec = ReadRecording(out);
    REQUIRE(rec.lines.size() >= 4);  // header, a, b, the stop's sample
    int64_t t1 = Json(rec.lines[1]).Int("t"), t2 = Json(rec.lines[2]).Int("t");
    // Intervals are on the monotonic clock the samples carry.
    int64_t m1 = Json(rec.lines[1]).Int("mono"), m2 = Json(rec.lines[2]).Int("mono");
    double itv = static_cast<double>(m2 - m1) / 1e9;

    ExitResult r = Run({"play", out});
    CAPTURE(r.err);
    REQUIRE(r.code == 0);
    std::vector<std::string> lines = SplitLines(r.out);
    // a->b, then b to the stop's sample, which repeats b: a pair too.
    REQUIRE(lines.size() == 2);
    CHECK(r.err.find("warning") == std::string::npos);
    Json line(lines[0]);
    auto root = line.root();
    CheckNear(root["elapsed_time"], static_cast<double>(t2 - t1) / 1e9, 3);
    CheckNear(root["time"], static_cast<double>(t2) / 1e9, 3);
    CHECK(int64_t(root["cpu"]["num_core"]) == 2);
    CheckNear(root["cpu"]["all"]["usr"], 40.0, 2);  // Δuser 200 of 1000, ×2 cores
    CheckNear(root["cpu"]["all"]["sys"], 20.0, 2);
    CheckNear(root["cpu"]["all"]["idle"], 140.0, 2);
    CheckNear(root["cpu"]["cores"].at(1)["usr"], 20.0, 2);
    CheckNear(root["cpu"]["cores"].at(1)["idle"], 70.0, 2);
    auto vda = root["disk"]["vda"];
    CheckNear(vda["riops"], 500 / itv, 2);
    CheckNear(vda["wiops"], 250 / itv, 2);
    CheckNear(vda["rkbyteps"], 4000 / itv / 2, 2);
    CheckNear(vda["wkbyteps"], 4000 / itv / 2, 2);
    CheckNear(vda["rlatency"], 0.5, 3);
    CheckNear(vda["wlatency"], 1.0, 3);
    CheckNear(vda["rsize"], 8.0, 2);
    CheckNear(vda["wsize"], 16.0, 2);
    CheckNear(vda["qlen"], 400 / itv / 1000, 2);
    CheckNear(root["disk"]["total"]["riops"], 500 / itv, 2);
    auto eth0 = root["net"]["eth0"];
    CheckNear(eth0["rxkbyteps"], 300 / itv, 2);
    CheckNear(eth0["rxpktps"], 300 / itv, 2);
    CheckNear(eth0["txkbyteps"], 20 / itv, 2);
    CheckNear(eth0["txpktps"], 10 / itv, 2);
    CHECK(int64_t(root["mem"]["mem_total"]) == 8'000'000);
    CHECK(int64_t(root["mem"]["mem_used"]) == 8'000'000 - 1'000'000 - 100 - 200 - 300);


    // Metadata, percent-decoded, on play's stderr before anything else, and
    // in both summaries.
    CHECK(r.err.starts_with("# meta: sql = SELECT * FROM t WHERE id=42\n"));
    ExitResult json = Run({"summary", "--json", out});
    REQUIRE(json.code == 0);
    CHECK(json.out.find("\"meta\":{\"sql\":\"SELECT * FROM t WHERE id=42\"}") !=
          std::string::npos);
    CHECK(std::string_view(Json(json.out).root()["meta"]["sql"]) ==
          "SELECT * FROM t WHERE id=42");
    ExitResult text = Run({"summary", out});
    CHECK(text.out.find("Metadata:\n") != std::string::npos);
    CHECK(text.out.find("SELECT * FROM t WHERE id=42") != std::string::npos);
  }

  TEST_CASE("no line spans a pause; marks go to stderr") {
    FakeProc fake(CountersAt(0));
    TempDir dir;
    std::string out = dir / "seg.pgr.gz";
    {
      CommandSession s({"record", "--root", fake.root(), "-l", out, "-i", "3600"});
      s.ReadReadyLine();
      uint64_t k = 0;  // CPU ticks pass between any two samples
      for (const char* command : {"sample", "pause", "resume", "mark phase-2", "sample"}) {
        CAPTURE(command);
        fake.Write(CountersAt(++k));
        REQUIRE(bool(s.Command(command).root()["ok"]));
      }
      fake.Write(CountersAt(++k));
      s.CloseStop();
      REQUIRE(s.Wait().code == 0);
    }
    // The pairs a reader may form: consecutive samples with no pause or
    // resume between them.
    // Elapsed time runs on the monotonic clock (`mono`), `time` is `t`.
    std::vector<int64_t> pair_ends, pair_monos;
    int64_t first = -1, mark = -1;
    bool have_prev = false;
    for (const std::string& text : ReadRecording(out).lines) {
      Json line(text);
      if (!line.Has("t")) continue;  // the header
      if (line.Has("event")) {
        if (line.Str("event") == "mark") mark = line.Int("mono");
        if (line.Str("event") == "pause" || line.Str("event") == "resume") have_prev = false;
        continue;
      }
      if (first < 0) first = line.Int("mono");
      if (have_prev) {
        pair_ends.push_back(line.Int("t"));
        pair_monos.push_back(line.Int("mono"));
      }
      have_prev = true;
    }
    CHECK(pair_ends.size() == 5);  // 3 samples before the pause, 4 after
    ExitResult r = Run({"play", out});
    CAPTURE(r.err);
    REQUIRE(r.code == 0);
    std::vector<std::string> lines = SplitLines(r.out);
    REQUIRE(lines.size() == pair_ends.size());
    for (size_t i = 0; i < lines.size(); ++i) {
      CheckNear(Json(lines[i]).root()["time"], static_cast<double>(pair_ends[i]) / 1e9, 3);
      CheckNear(Json(lines[i]).root()["elapsed_time"],
                static_cast<double>(pair_monos[i] - first) / 1e9, 3);
    }
    char expected[64];
    std::snprintf(expected, sizeof expected, "# mark: phase-2 at %.3f\n",
                  static_cast<double>(mark - first) / 1e9);
    CHECK(r.err.find(expected) != std::string::npos);
  }

  TEST_CASE("usage: --help, and every mistake is one line and exit 1") {
    for (const char* command : {"play", "summary", "summarize"}) {
      ExitResult r = Run({command, "--help"});
      CHECK(r.code == 0);
      CHECK(r.out.find("Usage:") != std::string::npos);
    }
    TempDir dir;
    struct Case {
      std::vector<std::string> args;
      std::string says;
    };
    for (const Case& c : std::vector<Case>{
             {{"play", "--bogus"}, "unknown option: --bogus"},
             {{"play", "a", "b"}, "No such file"},  // several files: one timeline
             {{"play", "--disk-only"}, "needs a value"},
             {{"play", "--disk-only", "(", "x"}, "--disk-only '('"},
             {{"play", dir / "missing"}, "No such file"},
             {{"play", dir.path()}, "no recording there"},
             {{"play", "-", "b"}, "read alone"},
             {{"summary"}, "no recording named"},
             {{"summary", "--pager"}, "needs a value"},
             {{"summary", dir / "missing"}, "No such file"},
         }) {
      CAPTURE(c.args);
      ExitResult r = Run(c.args);
      CHECK(r.code == 1);
      CHECK(r.out.empty());
      CHECK(SplitLines(r.err).size() == 1);
      CHECK(r.err.starts_with("perfmonger " + c.args[0].substr(0, 7)));
      CHECK(r.err.find(c.says) != std::string::npos);
    }
  }
}

}  // namespace
}  // namespace pm::test

// summary --stats on real load, recorded from this machine's /proc: a
// process burning CPU, holding 512 MiB, writing 32 MiB with O_DIRECT,
// each between two marks the test sends through the recorder's command fd
// once the load helper says it is done (or holding). The statistics must
// put each peak within one sample of the mark that closes it.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "common/io.hh"
#include "test/process/load_helper.hh"
#include "test/process/recording.hh"

namespace pm::test {
namespace {

struct Timeline {
  std::vector<int64_t> samples;        // t of each sample, in order
  std::vector<std::pair<std::string, int64_t>> marks;
  int64_t origin = 0;                  // the first item's t
  int64_t Mark(const std::string& label) const {
    for (const auto& [l, t] : marks)
      if (l == label) return t;
    FAIL("no mark " << label);
    return 0;
  }
  // The sample nearest `elapsed` seconds after the origin.
  size_t SampleAt(double elapsed) const {
    size_t best = 0;
    for (size_t i = 0; i < samples.size(); ++i)
      if (std::fabs(Elapsed(samples[i]) - elapsed) < std::fabs(Elapsed(samples[best]) - elapsed))
        best = i;
    return best;
  }
  size_t SampleOf(int64_t t) const { return SampleAt(Elapsed(t)); }
  double Elapsed(int64_t t) const { return static_cast<double>(t - origin) / 1e9; }
};

Timeline Read(const std::string& path) {
  Recording rec = ReadRecording(path);
  Timeline tl;
  for (size_t i = 1; i < rec.lines.size(); ++i) {
    Json j(rec.lines[i]);
    if (tl.origin == 0) tl.origin = j.Int("t");
    if (!j.Has("event")) tl.samples.push_back(j.Int("t"));
    else if (j.Str("event") == "mark") tl.marks.emplace_back(j.Str("label"), j.Int("t"));
  }
  return tl;
}

// Within one sample of the sample at `mark`.
void CheckPeakAt(const Timeline& tl, const JsonValue& series, const std::string& mark) {
  REQUIRE(series.exists());
  const size_t at = tl.SampleAt(double(series["max_elapsed"]));
  const size_t want = tl.SampleOf(tl.Mark(mark));
  CAPTURE(mark);
  CAPTURE(double(series["max_elapsed"]));
  CHECK(at + 1 >= want);
  CHECK(at <= want + 1);
}

}  // namespace

TEST_SUITE("summary --stats on real load") {
  TEST_CASE("a CPU burn, 512 MiB held, an O_DIRECT burst: each peak where it happened") {
    TempDir dir;
    const std::string disk = DiskOf(dir.path());
    LoadHelper load(dir / "direct");
    const std::string path = dir / "load.pgr";
    std::vector<std::string> args = {"record", "-i", "3600", "-l", path,
                                     "--pid", std::to_string(load.pid())};
    if (!disk.empty()) args.insert(args.end(), {"-d", disk});
    CommandSession s(args);
    s.ReadReadyLine();
    auto mark = [&](const std::string& label) {
      AwaitCpuTick();  // no sample of zero width
      REQUIRE(bool(s.Command("mark " + label).root()["ok"]));
    };
    mark("cpu");
    CHECK(load.Do('c') == 'c');
    mark("cpu-end");
    mark("mem");
    CHECK(load.Do('m') == 'm');
    mark("mem-held");
    CHECK(load.Do('f') == 'f');
    mark("mem-end");
    mark("io");
    const bool direct = load.Do('w') == 'w';
    mark("io-end");
    s.CloseStop();
    REQUIRE(s.Wait().code == 0);
    load.End();

    ExitResult r = Run({"summary", "--stats", "--json", path});
    CAPTURE(r.err);
    REQUIRE(r.code == 0);
    const Timeline tl = Read(path);
    const Json summary(r.out);
    const JsonValue& series = summary.root()["stats"]["series"];
    const std::string proc = "procs." + std::to_string(load.pid());

    // The burn: half a second of user CPU in its interval. (Touching 512
    // MiB keeps a core busy too, but in the kernel: its sys time.)
    const JsonValue& usr = series[proc + ".usr"];
    CheckPeakAt(tl, usr, "cpu-end");
    CHECK(std::string_view(usr["unit"]) == "%");
    CHECK(double(usr["max"]) > 10.0);
    CHECK(double(usr["min"]) < double(usr["max"]) / 2);
    CHECK(double(series[proc + ".cpu"]["max"]) >= double(usr["max"]));
    CHECK(double(series["cpu.busiest_core.busy"]["max"]) > 10.0);
    CHECK(std::string_view(series["cpu.all.usr"]["unit"]) == "%");

    // The allocation: held at mem-held's sample, gone at mem-end's.
    const JsonValue& rss = series[proc + ".rss"];
    CheckPeakAt(tl, rss, "mem-held");
    CHECK(std::string_view(rss["unit"]) == "MiB");
    CHECK(double(rss["max"]) >= 512.0);
    CHECK(double(rss["min"]) < 64.0);
    const JsonValue& used = series["mem.used"];
    CHECK(std::string_view(used["kind"]) == "level");
    CHECK(double(used["max"]) - double(used["min"]) >= 256.0);  // others' use may move too

    // The burst: 32 MiB written in its interval.
    if (direct && !disk.empty()) {
      const JsonValue& w = series["disk." + disk + ".wmibps"];
      CheckPeakAt(tl, w, "io-end");
      CHECK(std::string_view(w["unit"]) == "MiB/s");
      CHECK(double(series["disk." + disk + ".wiops"]["max"]) > 0.0);
      CHECK(series["disk." + disk + ".util"].exists());
    } else {
      MESSAGE("O_DIRECT burst skipped: " << dir.path() << " is on no disk or refuses O_DIRECT");
    }

    // Per phase: each phase holds its own peak.
    ExitResult phases = Run({"summary", "--stats", "--phases", "--json", path});
    REQUIRE(phases.code == 0);
    const Json all(phases.out);
    bool saw_cpu = false, saw_mem = false;
    for (const JsonValue& phase : all.root().array()) {
      const std::string_view label(phase["phase"]);
      const JsonValue& p = phase["stats"]["series"];
      if (label == "cpu") {
        saw_cpu = true;
        CHECK(double(p[proc + ".usr"]["max"]) == double(usr["max"]));
      } else if (label == "mem") {
        saw_mem = true;
        CHECK(double(p[proc + ".rss"]["max"]) == double(rss["max"]));
      } else if (label == "mem-end") {
        CHECK(double(p[proc + ".rss"]["max"]) < 64.0);
      }
    }
    CHECK(saw_cpu);
    CHECK(saw_mem);

    // A window is a recording of just that span: --phase cpu holds the burn.
    ExitResult window = Run({"summary", "--stats", "--json", "--phase", "cpu", path});
    CAPTURE(window.err);
    REQUIRE(window.code == 0);
    const Json windowed(window.out);
    const JsonValue& in_window = windowed.root()["stats"]["series"][proc + ".usr"];
    CHECK(double(in_window["max"]) == double(usr["max"]));
    CHECK(int64_t(in_window["count"]) == 1);  // cpu to cpu-end: one interval

    // The text names the series and their units.
    ExitResult text = Run({"summary", "--stats", "--no-pager", path});
    REQUIRE(text.code == 0);
    CHECK(text.out.find("* Statistics over ") != std::string::npos);
    CHECK(text.out.find("\n  " + proc + ".rss ") != std::string::npos);
  }

  TEST_CASE("--stats-grid: every interval one tick, the marks' and the stop's samples left out") {
    TempDir dir;
    const std::string path = dir / "grid.pgr";
    CommandSession s({"record", "-i", "0.05", "-t", "2", "-l", path});
    s.ReadReadyLine();
    constexpr int kMarks = 4;
    for (int i = 0; i < kMarks; ++i) {
      AwaitCpuTick();  // the marks fall between ticks, wherever
      REQUIRE(bool(s.Command("mark m" + std::to_string(i)).root()["ok"]));
    }
    REQUIRE(s.Wait().code == 0);  // -t 2: the stop's sample, then the trailer

    // The ticks, from the file: every sample but those a mark or the stop took.
    Recording rec = ReadRecording(path);
    std::vector<double> ticks;  // elapsed seconds of each
    int64_t origin = 0;
    size_t samples = 0;
    for (size_t i = 1; i < rec.lines.size(); ++i) {
      Json j(rec.lines[i]);
      if (origin == 0) origin = j.Int("t");
      if (j.Has("event")) {
        const std::string kind(j.Str("event"));
        if (kind == "mark" || kind == "end") ticks.pop_back();  // its sample
        continue;
      }
      ++samples;
      ticks.push_back(static_cast<double>(j.Int("t") - origin) / 1e9);
    }
    REQUIRE(ticks.size() == samples - kMarks - 1);

    ExitResult r = Run({"summary", "--stats-grid", "--json", path});
    CAPTURE(r.err);
    REQUIRE(r.code == 0);
    const Json grid(r.out);
    const JsonValue& stats = grid.root()["stats"];
    CHECK(bool(stats["grid"]));
    CHECK(int64_t(stats["left_out"]) == kMarks + 1);
    CHECK(int64_t(stats["intervals"]) == static_cast<int64_t>(ticks.size()) - 1);
    // Every series' peak is at a tick, never at a mark's sample.
    size_t series = 0;
    for (const auto& member : stats["series"].object()) {
      const std::string& name = member.first;  // CAPTURE refers to it: not a binding (clang 14)
      const JsonValue& one = member.second;
      CAPTURE(name);
      const double at = double(one["max_elapsed"]);
      bool on_tick = false;
      for (double t : ticks) on_tick = on_tick || std::fabs(t - at) < 0.0015;
      CHECK(on_tick);
      ++series;
    }
    CHECK(series > 10);

    // Without the grid every sample counts.
    ExitResult all = Run({"summary", "--stats", "--json", path});
    REQUIRE(all.code == 0);
    const Json whole(all.out);
    const JsonValue& every = whole.root()["stats"];
    CHECK(int64_t(every["intervals"]) == static_cast<int64_t>(samples) - 1);
    CHECK_FALSE(every["grid"].exists());
  }
}

}  // namespace pm::test

// Time windows, damaged recordings and zero-width intervals, end to end on
// real recordings: a window's output is the output of the recording cut to
// the items inside it (by elapsed time, wall-clock time, time of day, mark
// and phase, in every reader), its header keeping the recording's origin,
// so that its elapsed times are the whole recording's (and `cat` writes
// that cut); a damaged file gives what the file without
// the lost lines gives, and exit 2; no output pairs two samples within one
// CPU tick.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "proto/pgr_format.hh"
#include "test/process/fake_proc.hh"
#include "test/process/json.hh"
#include "test/process/recording.hh"
#include "test/process/spawn.hh"

namespace pm::test {
namespace {

std::string Joined(const std::vector<std::string>& words, const std::string& between = " ") {
  std::string out;
  for (const std::string& w : words) out.append(out.empty() ? "" : between).append(w);
  return out;
}

// A real recording at 20 ms with phases q1 and q2 marked through --cmd-fd
// and a pause inside q2; `version` its format.
// `mib` MiB of zeros into `path`, synced to its disk.
void WriteAndSync(const std::string& path, size_t mib) {
  UniqueFd fd =
      UniqueFd::Adopt(::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600));
  REQUIRE(fd.Get() >= 0);
  const std::string block(1 << 20, '\0');
  for (size_t i = 0; i < mib; ++i)
    REQUIRE(::write(fd.Get(), block.data(), block.size()) == ssize_t(block.size()));
  REQUIRE(::fsync(fd.Get()) == 0);
}

// With `burst`, 16 MiB written and synced inside q1: the disk's peak comes
// well after the start, whatever else the machine does (two CPU hogs keep
// every CPU series flat from the first pair on).
std::string RecordPhases(const TempDir& dir, const std::string& name, const char* version,
                         bool burst = false) {
  std::string path = dir / name;
  CommandSession s({"record", "-l", path, "-i", "20ms", "--format-version", version});
  s.ReadReadyLine();
  size_t n = 0;
  auto after = [&](size_t samples) { n = WaitForSamples(path, n + samples, DefaultDeadline()); };
  after(4);
  for (const char* command : {"mark q1-begin", "mark q1-end", "mark q2-begin", "pause",
                              "resume", "mark q2-end"}) {
    CAPTURE(command);
    REQUIRE(bool(s.Command(command).root()["ok"]));
    if (burst && std::string_view(command) == "mark q1-begin") WriteAndSync(dir / "burst", 16);
    if (std::string_view(command) != "pause") after(4);  // none while paused
  }
  s.CloseStop();
  ExitResult r = s.Wait();
  CAPTURE(r.err);
  REQUIRE(r.code == 0);
  return path;
}

// Whether no difference line comes from raw[from] on before a keyframe: a
// v2 span lost from a damaged difference line ends at the next event, and
// the reader resumes there; difference lines after that event (a mark a
// busy machine wrote amid the run) would be a second span.
bool NoDifferenceBeforeKeyframe(const std::vector<std::string>& raw, size_t from) {
  for (size_t i = from; i < raw.size(); ++i) {
    if (raw[i].starts_with("{\"d\":1,")) return false;
    if (raw[i].starts_with("{\"t\":")) return true;
  }
  return true;
}

// The recording's lines as v1 text, and the time of each (0: the header).
struct Lines {
  std::vector<std::string> text;
  std::vector<int64_t> t;
  int64_t origin = 0;       // the first item's time
  int64_t origin_mono = 0;  // and its monotonic time
};

Lines LinesOf(const std::string& path) {
  Lines out;
  out.text = ReadRecording(path).lines;
  for (size_t i = 0; i < out.text.size(); ++i)
    out.t.push_back(i == 0 ? 0 : Json(out.text[i]).Int("t"));
  out.origin = out.t.at(1);
  out.origin_mono = Json(out.text.at(1)).Int("mono");
  return out;
}

int64_t MarkTime(const Lines& lines, const std::string& label) {
  for (size_t i = 1; i < lines.text.size(); ++i) {
    Json j(lines.text[i]);
    if (j.Has("event") && j.Str("event") == "mark" && j.Str("label") == label) return j.Int("t");
  }
  FAIL("no mark " << label);
  return 0;
}

// The recording cut to the items in [from, to], written as a v1 file
// whose header keeps the recording's origin (pgr(5)): its elapsed times
// are the recording's.
std::string Cut(const TempDir& dir, const Lines& lines, int64_t from, int64_t to) {
  const std::string& header = lines.text[0];
  REQUIRE(header.ends_with('}'));
  std::string bytes = header.substr(0, header.size() - 1) + ",\"origin\":{\"t\":" +
                      std::to_string(lines.origin) + ",\"mono\":" +
                      std::to_string(lines.origin_mono) + "}}\n";
  size_t items = 0;
  for (size_t i = 1; i < lines.text.size(); ++i)
    if (lines.t[i] >= from && lines.t[i] <= to) {
      bytes += lines.text[i] + "\n";
      ++items;
    }
  REQUIRE(items >= 3);
  std::string path = dir / ("cut-" + std::to_string(from) + "-" + std::to_string(to) + ".pgr");
  WriteFile(path, bytes);
  return path;
}

// A stand-in for gnuplot that draws nothing, quickly: an empty but whole
// PDF at its script's output (plot refuses a chart gnuplot left unfinished).
std::string BlankGnuplot(const TempDir& dir) {
  std::string path = dir / "gnuplot";
  WriteFile(path, "#!/bin/sh\nout=$(sed -n \"s/^set output '\\(.*\\)'$/\\1/p\" \"$1\")\n"
                  "printf '%%PDF-1.4\\n%%%%EOF\\n' > \"$out\"\n");
  REQUIRE(chmod(path.c_str(), 0755) == 0);
  return path;
}

// plot's data files for `args` (gnuplot not run: the data are the
// subject), one after the other; its exit status first.
std::string PlotData(std::vector<std::string> args) {
  TempDir out, bin;
  std::vector<std::string> plot = {"plot", "-s", "-o", out.path(), "--with-gnuplot",
                                   BlankGnuplot(bin)};
  plot.insert(plot.end(), args.begin(), args.end());
  ExitResult r = Run(plot);
  CAPTURE(r.err);
  std::string data = "exit " + std::to_string(r.code) + "\n";
  for (const char* file : {"cpu.dat", "disk.dat", "mem.dat", "net.dat"})
    if (access((out / file).c_str(), F_OK) == 0)
      data += std::string("== ") + file + "\n" + ReadFileBytes(out / file);
  return data;
}

// Every reader's standard output, `window` over `path` and none over `cut`,
// byte for byte (summary's text names its file: its JSON is compared);
// `cat` with the window writes the cut.
void CheckSameAsCut(const std::string& path, const std::vector<std::string>& window,
                    const std::string& cut) {
  const std::vector<std::vector<std::string>> readers = {
      {"play"},
      {"play", "--events"},
      {"play", "--format", "csv"},
      {"play", "--format", "openmetrics"},
      {"summary", "--json", "--all"},
      {"summary", "--json", "--phases"},
      {"summary", "--json", "--stats"},
      {"cat"}};
  for (const std::vector<std::string>& reader : readers) {
    std::vector<std::string> windowed = reader;
    windowed.insert(windowed.end(), window.begin(), window.end());
    windowed.push_back(path);
    std::vector<std::string> plain = reader;
    plain.push_back(cut);
    CAPTURE(Joined(windowed));
    ExitResult w = Run(windowed), c = Run(plain);
    CAPTURE(w.err);
    CHECK(w.code == 0);
    CHECK(c.code == 0);
    CHECK_FALSE(w.out.empty());
    CHECK(w.out == c.out);
    CHECK(w.err.find("not closed cleanly") == std::string::npos);  // the file is whole
  }
  std::vector<std::string> windowed = window;
  windowed.push_back(path);
  std::string plot = PlotData(windowed);
  CHECK(plot.starts_with("exit 0\n== cpu.dat\n"));
  CHECK(plot == PlotData({cut}));
}

std::string Rfc3339Micros(int64_t ns) { return FormatRfc3339(ns); }

// "HH:MM:SS.ffffff" of `ns` in UTC.
std::string TimeOfDayUtc(int64_t ns) {
  std::string rfc = FormatRfc3339(ns);  // 2026-12-02T00:40:29.330662Z
  return rfc.substr(11, rfc.size() - 12);
}

int64_t FloorMicros(int64_t ns) { return ns / 1000 * 1000; }

// `reader` over `path` with `window` (inserted before the path): its
// output; exit 0 required.
std::string Output(std::vector<std::string> reader, const std::vector<std::string>& window,
                   const std::string& path) {
  reader.insert(reader.end(), window.begin(), window.end());
  reader.push_back(path);
  CAPTURE(Joined(reader));
  ExitResult r = Run(reader);
  CAPTURE(r.err);
  REQUIRE(r.code == 0);
  return r.out;
}

// Each line of `part` is a line of `whole` (a CSV's header row aside).
void CheckLinesOf(const std::string& part, const std::string& whole, bool csv) {
  std::vector<std::string> lines = SplitLines(part), all = SplitLines(whole);
  REQUIRE(lines.size() > (csv ? 2u : 1u));
  for (size_t i = csv ? 1 : 0; i < lines.size(); ++i) {
    CAPTURE(lines[i]);
    CHECK(std::find(all.begin(), all.end(), lines[i]) != all.end());
  }
}

// The sample before the one at `rfc3339` (summary's max_time), by its time.
int64_t SampleBefore(const Lines& lines, const std::string& rfc3339) {
  int64_t prev = -1;
  for (size_t i = 1; i < lines.text.size(); ++i) {
    if (Json(lines.text[i]).Has("event")) continue;
    if (FormatRfc3339(lines.t[i]) == rfc3339) return prev;
    prev = lines.t[i];
  }
  FAIL("no sample at " << rfc3339);
  return -1;
}

// summary's "max at (s)" column of the row of `series`.
std::string MaxAtText(const std::string& summary, const std::string& series) {
  for (const std::string& line : SplitLines(summary)) {
    std::vector<std::string> words;
    for (size_t b = line.find_first_not_of(' '); b != std::string::npos;
         b = line.find_first_not_of(' ', line.find(' ', b)))
      words.push_back(line.substr(b, line.find(' ', b) - b));
    if (words.size() > 5 && words[0] == series) return words[5];
  }
  FAIL("no row " << series);
  return "";
}

}  // namespace

TEST_SUITE("windows") {
  TEST_CASE("a window by mark, phase, elapsed or wall-clock time is the recording cut there") {
    TempDir dir;
    for (const char* version : {"1", "2"}) {
      CAPTURE(version);
      std::string path = RecordPhases(dir, std::string("w") + version + ".pgr.gz", version);
      Lines lines = LinesOf(path);
      int64_t b1 = MarkTime(lines, "q1-begin"), e1 = MarkTime(lines, "q1-end");
      int64_t b2 = MarkTime(lines, "q2-begin"), e2 = MarkTime(lines, "q2-end");
      SUBCASE("marks") {
        CheckSameAsCut(path, {"--from", "mark:q1-begin", "--to", "mark:q1-end"},
                       Cut(dir, lines, b1, e1));
        // A pause inside the window, and the mark after it.
        CheckSameAsCut(path, {"--from", "mark:q2-begin", "--to", "mark:q2-end"},
                       Cut(dir, lines, b2, e2));
      }
      SUBCASE("a phase: from its mark to the next") {
        CheckSameAsCut(path, {"--phase", "q1-end"}, Cut(dir, lines, e1, b2));
        CheckSameAsCut(path, {"--phase", "q2-end"}, Cut(dir, lines, e2, lines.t.back()));
      }
      SUBCASE("elapsed time, either bound alone") {
        int64_t from = lines.origin + 50'000'000, to = lines.origin + 150'000'000;
        CheckSameAsCut(path, {"--from", "50ms", "--to", "0.15"}, Cut(dir, lines, from, to));
        CheckSameAsCut(path, {"--from", "0.05"}, Cut(dir, lines, from, lines.t.back()));
        CheckSameAsCut(path, {"--to", "150ms"}, Cut(dir, lines, lines.origin, to));
      }
      SUBCASE("wall-clock time: RFC 3339, and the time of day") {
        int64_t from = FloorMicros(b1), to = FloorMicros(b2);  // µs: the mark's sample in
        CheckSameAsCut(path, {"--from", Rfc3339Micros(b1), "--to", Rfc3339Micros(b2)},
                       Cut(dir, lines, from, to));
        std::string cut = Cut(dir, lines, from, to);
        SpawnOptions o;  // the time of day in the zone TZ names
        o.args = {"play", "--from", TimeOfDayUtc(b1), "--to", TimeOfDayUtc(b2), path};
        o.env = {"TZ=UTC"};
        ExitResult utc = Child(std::move(o)).Wait();
        CHECK(utc.code == 0);
        CHECK(utc.out == Run({"play", cut}).out);
      }
    }
  }

  TEST_CASE("a window's elapsed times are the whole recording's") {
    TempDir dir;
    std::string path = RecordPhases(dir, "e.pgr", "2");
    for (const std::vector<std::string>& window : std::vector<std::vector<std::string>>{
             {"--from", "50ms", "--to", "0.15"}, {"--from", "mark:q1-begin", "--to", "mark:q2-end"},
             {"--phase", "q1-end"}}) {
      CAPTURE(Joined(window));
      for (const std::vector<std::string>& reader : std::vector<std::vector<std::string>>{
               {"play"}, {"play", "--events"}, {"play", "--format", "csv"}}) {
        bool csv = reader.size() == 3;
        CheckLinesOf(Output(reader, window, path), Output(reader, {}, path), csv);
      }
      std::vector<std::string> plot = window;
      plot.push_back(path);
      CheckLinesOf(PlotData(plot), PlotData({path}), false);
    }
    // The chart's time axis starts at the window's first point, in the
    // recording's time.
    TempDir out, bin;
    ExitResult r = Run({"plot", "-s", "-o", out.path(), "--with-gnuplot", BlankGnuplot(bin),
                        "--from", "50ms", path});
    REQUIRE(r.code == 0);
    std::vector<std::string> cpu = SplitLines(ReadFileBytes(out / "cpu.dat"));
    REQUIRE(cpu.size() > 3);
    double first = std::stod(cpu[2]);  // under the block's title and columns
    CHECK(first >= 0.05);
    std::string script = ReadFileBytes(out / "cpu.gp");
    size_t at = script.find("set xrange [");
    REQUIRE(at != std::string::npos);
    CHECK(std::stod(script.substr(at + 12)) == doctest::Approx(first).epsilon(1e-6));
  }

  TEST_CASE("summary's max at in a window is the whole recording's for the same peak") {
    TempDir dir;
    std::string path = RecordPhases(dir, "s.pgr", "1", true);
    Lines lines = LinesOf(path);
    Json whole(Output({"summary", "--stats", "--json"}, {}, path));
    std::string whole_text = Output({"summary", "--stats"}, {}, path);
    size_t tried = 0;
    for (const auto& entry : whole.root()["stats"]["series"].object()) {
      const std::string& series = entry.first;
      const JsonValue& stats = entry.second;
      // A peak well after the start (one at the first pair proves nothing).
      if (double(stats["max_elapsed"]) < 0.1 || tried == 3) continue;
      ++tried;
      CAPTURE(series);
      // From the peak's pair on: the window's first pair is the peak, and
      // its first (as the whole's).
      int64_t before = SampleBefore(lines, std::string(std::string_view(stats["max_time"])));
      REQUIRE(before > 0);
      std::vector<std::string> window = {"--from", Rfc3339Micros(FloorMicros(before))};
      Json part(Output({"summary", "--stats", "--json"}, window, path));
      const JsonValue& in = part.root()["stats"]["series"][series];
      CHECK(double(in["max"]) == double(stats["max"]));
      CHECK(double(in["max_elapsed"]) == double(stats["max_elapsed"]));
      if (std::string_view(stats["unit"]).find(' ') == std::string_view::npos)
        CHECK(MaxAtText(Output({"summary", "--stats"}, window, path), series) ==
              MaxAtText(whole_text, series));
    }
    CHECK(tried > 0);
  }

  TEST_CASE("cat --from/--to keeps the origin: its cut plays as the window does") {
    TempDir dir;
    std::string path = RecordPhases(dir, "c.pgr.zst", "2");
    std::string cut = dir / "cut.pgr";
    WriteFile(cut, Output({"cat"}, {"--from", "40ms", "--to", "300ms"}, path));
    std::string header = SplitLines(ReadFileBytes(cut)).at(0);
    CHECK(Json(header).root()["origin"]["t"].exists());
    CHECK(Json(header).root()["origin"]["mono"].exists());
    for (const std::vector<std::string>& reader : std::vector<std::vector<std::string>>{
             {"play"}, {"play", "--events"}, {"play", "--format", "csv"},
             {"summary", "--json", "--stats"}}) {
      CHECK(Output(reader, {}, cut) == Output(reader, {"--from", "40ms", "--to", "300ms"}, path));
      // A window of the cut counts from the same origin.
      CHECK(Output(reader, {"--from", "0.1", "--to", "200ms"}, cut) ==
            Output(reader, {"--from", "0.1", "--to", "200ms"}, path));
    }
    // A cut of the cut keeps the first origin; a whole recording's cat
    // has none.
    std::string again = dir / "again.pgr";
    WriteFile(again, Output({"cat"}, {"--from", "0.1"}, cut));
    CHECK(Output({"play"}, {}, again) == Output({"play"}, {"--from", "0.1", "--to", "300ms"}, path));
    CHECK_FALSE(Json(SplitLines(Output({"cat"}, {}, path)).at(0)).Has("origin"));
  }

  TEST_CASE("a mark that is not there, a window without a sample: one line naming what is") {
    TempDir dir;
    std::string path = RecordPhases(dir, "m.pgr", "2");
    for (const char* reader : {"play", "summary", "cat"}) {
      CAPTURE(reader);
      ExitResult r = Run({reader, "--from", "mark:q1-begin", "--to", "mark:q9", path});
      CHECK(r.code == 1);
      CHECK(r.out.empty());  // checked before anything is printed
      CHECK(r.err == "perfmonger " + std::string(reader) + ": error: " + path +
                         ": no mark 'q9' at or after the start of --from mark:q1-begin --to "
                         "mark:q9 (its marks: q1-begin, q1-end, q2-begin, q2-end)\n");
      ExitResult phase = Run({reader, "--phase", "q3", path});
      CHECK(phase.code == 1);
      CHECK(phase.err.find(": no mark 'q3' for --phase q3 (its marks: q1-begin,") !=
            std::string::npos);
      ExitResult empty = Run({reader, "--from", "1h", path});
      CHECK(empty.code == 1);
      CHECK(empty.err.find(": --from 1h holds no sample (the recording's samples span 0.000-") !=
            std::string::npos);
    }
    // On standard input the marks are known only at the end.
    ExitResult piped = PendingRun({"play", "--to", "mark:q9"}, ReadFileBytes(path)).child.Wait();
    CHECK(piped.code == 1);
    CHECK(piped.err.find("stdin: no mark 'q9'") != std::string::npos);
    ExitResult both = Run({"play", "--phase", "q1-begin", "--from", "1", path});
    CHECK(both.code == 1);
    CHECK(both.err.find("--phase is a window of its own") != std::string::npos);
    ExitResult bad = Run({"play", "--from", "last-week", path});
    CHECK(bad.code == 1);
    CHECK(bad.err.find("--from 'last-week': give elapsed time") != std::string::npos);
  }

  TEST_CASE("a damaged v1 or v2 recording gives every line it can, warns once a span, exit 2") {
    TempDir dir;
    for (const char* version : {"1", "2"}) {
      CAPTURE(version);
      std::string path = RecordPhases(dir, std::string("d") + version + ".pgr", version);
      std::vector<std::string> raw = SplitLines(ReadFileBytes(path));
      std::vector<std::string> v1 = LinesOf(path).text;
      REQUIRE(raw.size() == v1.size());
      // Damage a sample line in the middle: garbage in v1, a difference
      // line cut in half in v2 (its lines up to the next keyframe follow it).
      size_t bad = raw.size() / 2, resume = 0;
      for (;; ++bad) {
        REQUIRE(bad < raw.size());
        if (!raw[bad].starts_with(version[0] == '1' ? "{\"t\":" : "{\"d\":1,")) continue;
        resume = bad + 1;
        if (version[0] == '1') break;
        while (raw[resume].starts_with("{\"d\":1,")) ++resume;
        if (NoDifferenceBeforeKeyframe(raw, resume)) break;
      }
      std::vector<std::string> damaged = raw;
      damaged[bad] = version[0] == '1' ? "{\"t\":17,garbage" : raw[bad].substr(0, raw[bad].size() / 2);
      std::string damaged_path = dir / (std::string("damaged") + version + ".pgr");
      WriteFile(damaged_path, Joined(damaged, "\n") + "\n");
      std::vector<std::string> kept;
      for (size_t i = 0; i < v1.size(); ++i)
        if (i < bad || i >= resume) kept.push_back(v1[i]);
      std::string kept_path = dir / (std::string("kept") + version + ".pgr");
      WriteFile(kept_path, Joined(kept, "\n") + "\n");

      std::string lost = "warning: " + damaged_path + ": " +
                         (resume == bad + 1 ? "line " + std::to_string(bad + 1)
                                            : "lines " + std::to_string(bad + 1) + "-" +
                                                  std::to_string(resume)) +
                         " lost (pgr line " + std::to_string(bad + 1) + ", byte ";
      for (const std::vector<std::string>& reader : std::vector<std::vector<std::string>>{
               {"play"}, {"play", "--format", "csv"}, {"play", "--format", "openmetrics"},
               {"summary", "--json"}, {"summary", "--json", "--phases"}, {"cat"},
               {"play", "--phase", "q2-begin"}}) {
        CAPTURE(Joined(reader));
        std::vector<std::string> on_damaged = reader, on_kept = reader;
        on_damaged.push_back(damaged_path);
        on_kept.push_back(kept_path);
        ExitResult d = Run(on_damaged), k = Run(on_kept);
        CAPTURE(d.err);
        CHECK(d.code == 2);
        CHECK(k.code == 0);
        CHECK(d.out == k.out);  // every recoverable sample, nothing invented
        CHECK(d.err.find(lost) != std::string::npos);
        CHECK(d.err.find("resumed at") != std::string::npos);
        CHECK(d.err.find(" lost (") == d.err.rfind(" lost ("));  // one span, one warning
      }
    }
  }

  TEST_CASE("every pair is kept: one too close to measure CPU has only its CPU fields null") {
    TempDir dir;
    std::string path = dir / "z.pgr";
    {
      CommandSession s({"record", "-l", path, "-i", "1", "--format-version", "1"});
      s.ReadReadyLine();
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 3; ++j) REQUIRE(bool(s.Command("sample").root()["ok"]));
      s.CloseStop();
      REQUIRE(s.Wait().code == 0);
    }
    // Real back-to-back samples: one line per pair, whatever the ticks
    // did; a line's CPU modes are null, or sum to 100 x cores.
    ExitResult real = Run({"play", path});
    REQUIRE(real.code == 0);
    CHECK(real.err.empty());
    Recording rec = ReadRecording(path);
    CHECK(SplitLines(real.out).size() == CountSampleLines(rec) - 1);
    for (const std::string& line : SplitLines(real.out)) {
      auto all = Json(line).root()["cpu"]["all"];
      if (all["usr"].is_null()) continue;
      double sum = 0;
      for (const char* mode : {"usr", "nice", "sys", "idle", "iowait", "hardirq", "softirq",
                               "steal"})
        sum += double(all[mode]);
      CHECK(std::fabs(sum - 100.0 * double(Json(line).root()["cpu"]["num_core"])) < 1.0);
    }
    // Made deterministic: a sample repeated 0.25 ms later (or halfway to
    // the next: back-to-back `sample`s can come 50 us apart), no counter
    // moved.
    std::vector<std::string> lines = SplitLines(ReadFileBytes(path));
    size_t at = 3;
    REQUIRE(lines[at].starts_with("{\"t\":"));
    REQUIRE(lines[at + 1].starts_with("{\"t\":"));
    Json sample(lines[at]);
    const int64_t gap = std::min(Json(lines[at + 1]).Int("t") - sample.Int("t"),
                                 Json(lines[at + 1]).Int("mono") - sample.Int("mono"));
    REQUIRE(gap > 1);
    const int64_t later = std::min<int64_t>(250'000, gap / 2);
    std::string again = lines[at];
    auto shift = [&again, later](const std::string& key, int64_t value) {
      std::string from = "\"" + key + "\":" + std::to_string(value);
      size_t where = again.find(from);
      REQUIRE(where != std::string::npos);
      again.replace(where, from.size(), "\"" + key + "\":" + std::to_string(value + later));
    };
    shift("t", sample.Int("t"));
    shift("mono", sample.Int("mono"));
    lines.insert(lines.begin() + static_cast<long>(at) + 1, again);
    std::string twice = dir / "twice.pgr";
    WriteFile(twice, Joined(lines, "\n") + "\n");
    ExitResult r = Run({"play", twice}), p = Run({"play", path});
    REQUIRE(r.code == 0);
    CHECK(r.err.empty());
    std::vector<std::string> got = SplitLines(r.out), plain = SplitLines(p.out);
    REQUIRE(got.size() == plain.size() + 1);
    Json pair(got[at - 1]);  // the pair ending at the repeated sample
    CHECK(pair.root()["cpu"]["all"]["usr"].is_null());
    CHECK(pair.root()["cpu"]["cores"].at(0)["idle"].is_null());
    CHECK(double(pair.root()["disk"]["total"]["riops"]) == 0.0);  // the others stand
    CHECK(double(pair.root()["net"]["total"]["rxkbyteps"]) == 0.0);
    ExitResult csv = Run({"play", "--format", "csv", twice});
    REQUIRE(csv.code == 0);
    std::vector<std::string> rows = SplitLines(csv.out);
    REQUIRE(rows.size() == got.size() + 1);
    auto split = [](std::string row) {  // no quoted cell in these rows
      if (row.ends_with('\r')) row.pop_back();
      std::vector<std::string> cells;
      for (size_t b = 0, e;; b = e + 1) {
        e = row.find(',', b);
        cells.push_back(row.substr(b, e - b));
        if (e == std::string::npos) return cells;
      }
    };
    std::vector<std::string> header = split(rows[0]), cells = split(rows[at]);
    REQUIRE(cells.size() == header.size());
    for (size_t c = 0; c < header.size(); ++c) {
      CAPTURE(header[c]);
      if (header[c].starts_with("cpu.all.") || header[c].starts_with("cpu.cores."))
        CHECK(cells[c].empty());
      else if (header[c].starts_with("disk.total."))
        CHECK_FALSE(cells[c].empty());
    }
    // Two samples alone: one line, and a summary that says its CPU
    // figures are finer than what was measured.
    std::string alone = dir / "alone.pgr";
    WriteFile(alone, lines[0] + "\n" + lines[at] + "\n" + again + "\n");
    ExitResult play = Run({"play", alone});
    CHECK(play.code == 0);
    CHECK(SplitLines(play.out).size() == 1);
    ExitResult summary = Run({"summary", "--json", alone});
    CHECK(summary.code == 0);
    CHECK(summary.err.find("shorter than the CPU time's resolution") != std::string::npos);
  }
}

}  // namespace pm::test

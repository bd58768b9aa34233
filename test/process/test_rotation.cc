// record --rotate (issue 48): a file per period, crossing simulated
// midnights at 10 ms with the test-only clock (docs/testing.md); every
// sample in exactly one period, each file readable alone; retention that
// deletes only the recorder's own files; SIGKILL at random moments around
// rotations; SIGHUP's reopen; a full disk that suspends and resumes.
#include <doctest/doctest.h>
#include <poll.h>
#include <signal.h>
#include <sys/inotify.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>

#include "test/process/other_user.hh"
#include "test/process/recording.hh"
#include "test/process/tmpfs.hh"

namespace pm::test {
namespace {

// 2026-12-03 12:00:00 UTC; at a day a second, midnights come 0.5 s and
// 1.5 s after the recorder starts (its set-up must take less than 0.5 s).
constexpr const char* kNoon = "1796299200";
const std::vector<std::string> kFastClock = {"TZ=UTC", std::string("PERFMONGER_TEST_CLOCK=") +
                                                           kNoon + ":86400"};

std::vector<std::string> SampleLines(const std::string& path) {
  std::vector<std::string> out;
  for (const std::string& line : ReadRecording(path).lines)
    if (line.rfind("{\"t\":", 0) == 0) out.push_back(line);
  return out;
}

// The recorder's files in `dir`, by name (the order of their periods).
std::vector<std::string> RotatedFiles(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().filename().string().rfind("perfmonger-2026", 0) == 0)
      out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

// Waits (inotify on `dir`, no sleep) until `name` is created there.
void WaitForCreate(const std::string& dir, const std::string& name, Deadline deadline) {
  UniqueFd in = UniqueFd::Adopt(inotify_init1(IN_CLOEXEC | IN_NONBLOCK));
  REQUIRE(inotify_add_watch(in.Get(), dir.c_str(), IN_CREATE | IN_MOVED_TO) >= 0);
  while (!std::filesystem::exists(dir + "/" + name)) {
    PollUntil(in.Get(), POLLIN, deadline, name.c_str());
    char events[4096];
    while (read(in.Get(), events, sizeof events) > 0) {
    }
  }
}

// Reads inotify events from `in` until one names `name`.
void WaitForEvent(int in, const std::string& name, Deadline deadline) {
  alignas(inotify_event) char buf[4096];
  for (;;) {
    PollUntil(in, POLLIN, deadline, name.c_str());
    ssize_t n = read(in, buf, sizeof buf);
    for (ssize_t at = 0; at < n;) {
      const auto* e = reinterpret_cast<const inotify_event*>(buf + at);
      if (e->len > 0 && name == e->name) return;
      at += static_cast<ssize_t>(sizeof(inotify_event) + e->len);
    }
  }
}

// Waits (inotify on `dir`: any change in it) until the file at `path`
// exists and holds `n` samples; it may come and go before that.
void WaitForSamplesIn(const std::string& dir, const std::string& path, size_t n,
                      Deadline deadline) {
  UniqueFd in = UniqueFd::Adopt(inotify_init1(IN_CLOEXEC | IN_NONBLOCK));
  REQUIRE(inotify_add_watch(in.Get(), dir.c_str(), IN_CREATE | IN_MODIFY) >= 0);
  auto holds = [&] {
    try {
      return std::filesystem::exists(path) && SampleLines(path).size() >= n;
    } catch (const std::exception&) {
      return false;  // removed while being read
    }
  };
  while (!holds()) {
    PollUntil(in.Get(), POLLIN, deadline, path.c_str());
    char events[4096];
    while (read(in.Get(), events, sizeof events) > 0) {
    }
  }
}

// Consecutive files share their boundary sample: the last of one is the
// first of the next (same instant, same counters). Returns the samples of
// all of them, each once.
std::vector<std::string> JoinedSamples(const std::vector<std::string>& files) {
  std::vector<std::string> joined;
  for (const std::string& f : files) {
    std::vector<std::string> samples = SampleLines(f);
    if (samples.empty()) continue;  // killed before its first flush
    if (!joined.empty()) {
      CAPTURE(f);
      CHECK(samples.front() == joined.back());
      joined.pop_back();
    }
    joined.insert(joined.end(), samples.begin(), samples.end());
  }
  return joined;
}

// A play line without its elapsed_time, which counts from its input's start.
std::string WithoutElapsed(const std::string& line) {
  size_t at = line.find(",\"elapsed_time\":");
  size_t end = line.find(',', at + 1);
  return at == std::string::npos ? line : line.substr(0, at) + line.substr(end);
}

int64_t MonoOf(const std::string& sample) { return Json(sample).Int("mono"); }

TEST_SUITE("rotation") {
  TEST_CASE("two simulated midnights at 10 ms: three files, every sample once") {
    TempDir dir;
    std::string out = dir / "log";
    std::filesystem::create_directory(out);
    // Planted: none of these is the recorder's own, whatever its name.
    std::ofstream(out + "/notes.txt") << "mine";
    std::ofstream(dir / "target") << "elsewhere";
    std::filesystem::create_symlink(dir / "target", out + "/perfmonger-20200101.pgr.zst");
    std::ofstream(out + "/perfmonger-20200102.pgr.zst") << "another user's";
    OtherUser other;
    if (other.available())
      REQUIRE(chown((out + "/perfmonger-20200102.pgr.zst").c_str(), other.uid(), other.gid()) == 0);
    std::ofstream(out + "/perfmonger-20200103.pgr.zst") << "its own, expired";

    Session s({"record", "--rotate", "daily", "--keep", "2d", "-i", "10ms", "-l", out + "/"},
              "", kFastClock);
    s.ReadReadyLine();
    WaitForCreate(out, "perfmonger-20261205.pgr.zst", DefaultDeadline());
    WaitForSamples(out + "/perfmonger-20261205.pgr.zst", 3, DefaultDeadline());
    s.CloseStop();
    ExitResult r = s.Wait();
    CHECK(r.code == 0);

    std::vector<std::string> files = RotatedFiles(out);
    REQUIRE(files.size() == 3);
    CHECK(files[0] == out + "/perfmonger-20261203.pgr.zst");
    CHECK(files[1] == out + "/perfmonger-20261204.pgr.zst");
    CHECK(files[2] == out + "/perfmonger-20261205.pgr.zst");
    CheckCleanRecording(files[0], "rotate");
    CheckCleanRecording(files[1], "rotate");
    CheckCleanRecording(files[2], "stop-fd");
    // Each file holds its day's samples, closed by the first of the next.
    const int64_t midnights[] = {1796342400'000000000, 1796428800'000000000};
    for (size_t i = 0; i < 2; ++i) {
      std::vector<std::string> samples = SampleLines(files[i]);
      REQUIRE(samples.size() >= 2);
      CHECK(Json(samples.back()).Int("t") >= midnights[i]);
      CHECK(Json(samples[samples.size() - 2]).Int("t") < midnights[i]);
    }
    std::vector<std::string> joined = JoinedSamples(files);
    for (size_t i = 1; i < joined.size(); ++i) CHECK(MonoOf(joined[i - 1]) < MonoOf(joined[i]));
    // Each file alone, and the directory as one timeline: the same
    // intervals, once each; elapsed time counts from the first file's start.
    std::vector<std::string> alone;
    for (const std::string& f : files) {
      ExitResult play = Run({"play", f});
      CHECK(play.code == 0);
      for (const std::string& line : SplitLines(play.out)) alone.push_back(WithoutElapsed(line));
    }
    ExitResult joined_play = Run({"play", out});
    CHECK(joined_play.code == 0);
    CHECK(joined_play.err.find("gap") == std::string::npos);
    std::vector<std::string> joined_lines = SplitLines(joined_play.out);
    REQUIRE(joined_lines.size() == alone.size());
    double elapsed = 0;
    for (size_t i = 0; i < joined_lines.size(); ++i) {
      CHECK(WithoutElapsed(joined_lines[i]) == alone[i]);
      double e = double(Json(joined_lines[i]).root()["elapsed_time"]);
      CHECK(e >= elapsed);  // printed to the ms: two close samples may tie
      elapsed = e;
    }
    CHECK(Run({"summary", out}).code == 0);
    // cat of the directory: one v1 header, every sample once, as each
    // file's own lines are.
    ExitResult cat = Run({"cat", out});
    CHECK(cat.code == 0);
    std::vector<std::string> cat_lines = SplitLines(cat.out), cat_samples;
    REQUIRE(!cat_lines.empty());
    CHECK(Json(cat_lines.front()).Int("version") == 1);
    for (const std::string& line : cat_lines)
      if (line.rfind("{\"t\":", 0) == 0) cat_samples.push_back(line);
    CHECK(cat_samples == joined);
    // A window by wall clock across the files, as sar -s/-e: TIME after a
    // DATE TIME is that night's.
    setenv("TZ", "UTC", 1);
    ExitResult night = Run({"play", "--from", "2026-12-04 03:00", "--to", "05:00", out});
    CHECK(night.code == 0);
    std::vector<std::string> in_window = SplitLines(night.out);
    CHECK(in_window.size() >= 2);
    for (const std::string& line : in_window) {
      double t = double(Json(line).root()["time"]);
      CHECK(t >= 1796353200.0);  // 2026-12-04 03:00 UTC
      CHECK(t <= 1796360400.0);  // 05:00
    }
    // Retention: its own expired file went; the planted ones stay.
    CHECK_FALSE(std::filesystem::exists(out + "/perfmonger-20200103.pgr.zst"));
    CHECK(std::filesystem::is_symlink(out + "/perfmonger-20200101.pgr.zst"));
    CHECK(std::filesystem::exists(dir / "target"));
    CHECK(std::filesystem::exists(out + "/notes.txt"));
    if (other.available())
      CHECK(std::filesystem::exists(out + "/perfmonger-20200102.pgr.zst"));
    else
      MESSAGE("another user's file not tried: " << other.why_not());
  }

  TEST_CASE("two recordings with a gap read as one: no rate across it, the gap said") {
    TempDir dir;
    std::string a = dir / "a.pgr.zst", b = dir / "b.pgr.gz";
    REQUIRE(RecordBriefly({"record", "-i", "20ms", "-l", a}).code == 0);
    REQUIRE(RecordBriefly({"record", "-i", "20ms", "-l", b}).code == 0);
    std::ofstream(dir / "notes.txt") << "not a recording";
    ExitResult one = Run({"play", a}), two = Run({"play", b});
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"play", dir.path()}, {"play", b, a}}) {
      ExitResult r = Run(args);
      CAPTURE(r.err);
      CHECK(r.code == 0);
      CHECK(SplitLines(r.out).size() == SplitLines(one.out).size() + SplitLines(two.out).size());
      CHECK(r.err.find("no rate spans the gap") != std::string::npos);
    }
    // The other readers share the path: summary (--stats), the exports, plot.
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"summary", dir.path()}, {"summary", "--stats", dir.path()},
          {"play", "--format", "csv", dir.path()},
          {"play", "--format", "openmetrics", dir.path()},
          {"plot", "-T", "svg", "--output-dir", dir / "charts", dir.path()}}) {
      CAPTURE(args);
      ExitResult r = Run(args);
      CAPTURE(r.err);
      CHECK(r.code == 0);
    }
    CHECK(std::filesystem::exists(dir / "charts/cpu.svg"));
    // cat too: both files' samples, the gap a pause and a resume event.
    ExitResult cat = Run({"cat", b, a});
    CHECK(cat.code == 0);
    CHECK(cat.err.find("no rate spans the gap") != std::string::npos);
    CHECK(CountSampleLines(DecodeRecording(cat.out)) ==
          CountSampleLines(ReadRecording(a)) + CountSampleLines(ReadRecording(b)));
    CHECK(cat.out.find("\"event\":\"pause\"") != std::string::npos);
    CHECK(cat.out.find("\"event\":\"resume\"") != std::string::npos);
    CHECK(Run({"cat", a, "-"}).code == 1);
    ExitResult mixed = Run({"play", a, "-"});
    CHECK(mixed.code == 1);
    ExitResult empty = Run({"play", (dir / "none")});
    CHECK(empty.code == 1);
  }

  TEST_CASE("SIGKILL at 50 random moments around rotations: every flushed sample stays") {
    std::mt19937 random(48);
    std::uniform_int_distribution<int> delay_ms(0, 80);
    for (int run = 0; run < 50; ++run) {
      CAPTURE(run);
      TempDir dir;
      Session s({"record", "--rotate", "hourly", "-i", "10ms", "-l", dir.path() + "/"}, "",
                kFastClock);
      s.ReadReadyLine();
      UniqueFd pidfd = OpenPidfd(s.child().pid());
      struct pollfd p = {pidfd.Get(), POLLIN, 0};
      REQUIRE(poll(&p, 1, delay_ms(random)) == 0);  // the kill's moment; it must live
      std::set<std::string> flushed;
      for (const std::string& f : RotatedFiles(dir.path()))
        for (std::string& line : SampleLines(f)) flushed.insert(std::move(line));
      s.child().Signal(SIGKILL);
      s.Wait();

      std::vector<std::string> files = RotatedFiles(dir.path());
      std::vector<std::string> joined = JoinedSamples(files);
      std::set<std::string> read_back(joined.begin(), joined.end());
      for (const std::string& line : flushed) CHECK(read_back.count(line) == 1);
      for (size_t i = 0; i + 1 < files.size(); ++i) CheckCleanRecording(files[i], "rotate");
    }
  }

  TEST_CASE("SIGHUP after the file was moved away (logrotate) starts a new one") {
    TempDir dir;
    Session s({"record", "--rotate", "daily", "-i", "10ms", "-l", dir.path() + "/"},
              "", {"TZ=UTC"});
    s.ReadReadyLine();
    std::vector<std::string> files = RotatedFiles(dir.path());
    REQUIRE(files.size() == 1);
    std::string moved = dir / "moved.pgr.zst";
    REQUIRE(rename(files[0].c_str(), moved.c_str()) == 0);
    s.child().Signal(SIGHUP);
    WaitForCreate(dir.path(), std::filesystem::path(files[0]).filename(), DefaultDeadline());
    WaitForSamples(files[0], 2, DefaultDeadline());
    s.CloseStop();
    CHECK(s.Wait().code == 0);
    CheckCleanRecording(moved, "reopen");
    CheckCleanRecording(files[0], "stop-fd");
    CHECK(SampleLines(moved).back() == SampleLines(files[0]).front());
  }

  TEST_CASE("a full disk: one error line, nothing lost, writing resumes with space") {
    TempDir dir;
    TmpfsMount mnt(dir / "mnt", "size=256k");
    if (mnt.error == EPERM) {
      MESSAGE("skipped: cannot mount a tmpfs here: " << std::strerror(mnt.error));
      return;
    }
    REQUIRE(mnt.error == 0);
    Session s({"record", "--rotate", "daily", "--no-gzip", "-i", "10ms", "-l", mnt.path + "/"},
              "", {"TZ=UTC"});
    s.ReadReadyLine();
    std::vector<std::string> files = RotatedFiles(mnt.path);
    REQUIRE(files.size() == 1);
    std::string first = files[0];
    std::string resumed = first.substr(0, first.size() - 4) + "_1.pgr";
    UniqueFd in = UniqueFd::Adopt(inotify_init1(IN_CLOEXEC | IN_NONBLOCK));
    REQUIRE(inotify_add_watch(in.Get(), mnt.path.c_str(), IN_CREATE) >= 0);
    FillUp(mnt.path);
    std::vector<std::string> before = SampleLines(first);
    // Suspended: it tries the next file at each tick, and removes it while
    // the disk stays full.
    WaitForEvent(in.Get(), std::filesystem::path(resumed).filename(), DefaultDeadline());
    std::filesystem::remove(mnt.path + "/filler");
    WaitForSamplesIn(mnt.path, resumed, 3, DefaultDeadline());
    s.CloseStop();
    ExitResult r = s.Wait();
    CAPTURE(r.err);
    CHECK(r.code == 0);
    std::vector<std::string> err = SplitLines(r.err);
    REQUIRE(err.size() == 2);  // the error, once however many tries, and the resume
    CHECK(err[0].rfind("perfmonger record: error: ", 0) == 0);
    CHECK(err[0].find("No space left on device") != std::string::npos);
    CHECK(err[1].find("writing again, to " + resumed) != std::string::npos);
    std::vector<std::string> after = SampleLines(first);
    REQUIRE(after.size() >= before.size());
    CHECK(std::equal(before.begin(), before.end(), after.begin()));
    CHECK(Run({"play", first}).code == 0);
    CheckCleanRecording(resumed, "stop-fd");
  }
}

}  // namespace
}  // namespace pm::test

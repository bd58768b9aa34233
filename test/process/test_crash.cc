// Recordings that do not end cleanly: the recorder SIGKILLed, the disk
// full. Every sample flushed before the end must still be readable. And the
// faults a recorder must ride out (issue 10): a full disk before the first
// flush, a parent killed holding the stop fd, SIGSTOP/SIGCONT, rows and
// meminfo vanishing from a fake /proc.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/inotify.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "common/io.hh"
#include "test/process/fake_proc.hh"
#include "test/process/recording.hh"
#include "test/process/tmpfs.hh"

namespace pm::test {
namespace {

// Re-reads the file at every inotify IN_MODIFY until it holds `n` samples.
void WaitForSamples(const std::string& path, size_t n, Deadline deadline) {
  UniqueFd in = UniqueFd::Adopt(inotify_init1(IN_CLOEXEC | IN_NONBLOCK));
  REQUIRE(in);
  REQUIRE(inotify_add_watch(in.Get(), path.c_str(), IN_MODIFY) >= 0);
  while (CountSampleLines(ReadRecording(path)) < n) {
    PollUntil(in.Get(), POLLIN, deadline, "samples in the recording");
    char events[4096];
    while (read(in.Get(), events, sizeof events) > 0) {
    }
  }
}

// Header first, then only complete samples: no trailer, nothing garbled.
size_t CheckUncleanRecording(const Recording& rec) {
  REQUIRE(rec.lines.size() >= 2);
  CHECK(Json(rec.lines.front()).Str("format") == "perfmonger-pgr");
  for (size_t i = 1; i < rec.lines.size(); ++i) {
    CAPTURE(i);
    Json line(rec.lines[i]);
    CHECK(line.Has("t"));
    CHECK_FALSE(line.Has("event"));
  }
  return rec.lines.size() - 1;
}

// Every reader of a recording its recorder never closed: exit 0, all of
// it read, and one warning that says so (plain files too, which end at a
// line boundary and used to read back silently). At 10 ms, under load, a
// late tick and the next deadline may be of zero width: that warning too.
void CheckReadersWarnUnclosed(const std::string& path, size_t samples, const TempDir& dir) {
  const std::vector<std::vector<std::string>> commands = {
      {"play", path},
      {"summary", path},
      {"summary", "--phases", path},
      {"play", "--format", "csv", path},
      {"play", "--format", "openmetrics", path},
      {"plot", "-o", dir / "charts", "-T", "png", path},
  };
  for (const std::vector<std::string>& args : commands) {
    CAPTURE(args[0] + " " + args[1]);
    SpawnOptions options;
    options.args = args;
    ExitResult r = Child(std::move(options)).Wait(After(std::chrono::seconds(120)));
    CAPTURE(r.err);
    CHECK(r.code == 0);
    r.err = WithoutClockWarnings(r.err);
    CHECK(SplitLines(r.err).size() == 1);
    CHECK(r.err.starts_with("warning: " + path + ": "));
    CHECK(r.err.find("not closed cleanly") != std::string::npos);
    CHECK(r.err.find(std::to_string(samples) + " samples") != std::string::npos);
    if (args[0] == "play" && args.size() == 2)
      CHECK(SplitLines(r.out).size() == samples - 1);  // every pair
  }
}

// SIGSTOP, returning once the kernel has stopped the child: a write it was
// in the middle of (preempted in the kernel, say) is over by then.
void StopAndWait(const Child& child) {
  child.Signal(SIGSTOP);
  siginfo_t info{};
  REQUIRE(waitid(P_PID, child.pid(), &info, WSTOPPED | WEXITED | WNOWAIT) == 0);
  REQUIRE(info.si_code == CLD_STOPPED);
}

TEST_SUITE("crash") {
  TEST_CASE("after SIGKILL every flushed sample decodes") {
    const char* name = "out.pgr.gz";
    Compression expected = Compression::kGzip;
    SUBCASE("gzip") {}
    SUBCASE("zstd") {
      name = "out.pgr.zst";
      expected = Compression::kZstd;
    }
    SUBCASE("plain") {
      name = "out.pgr";
      expected = Compression::kPlain;
    }
    std::string file = name;
    CAPTURE(file);
    TempDir dir;
    std::string out = dir / name;
    Session s({"record", "-l", out, "-i", "0.01"});
    s.ReadReadyLine();
    WaitForSamples(out, 3, DefaultDeadline());
    s.child().Signal(SIGKILL);
    ExitResult r = s.Wait();
    CHECK(r.signal == SIGKILL);

    Recording rec = ReadRecording(out);  // throws on garbage
    CHECK(rec.compression == expected);
    CHECK(CheckUncleanRecording(rec) >= 3);
    if (expected != Compression::kPlain) CHECK(rec.truncated);
    CheckReadersWarnUnclosed(out, CountSampleLines(rec), dir);
  }

  TEST_CASE("a full disk: exit 2, one error line, the samples before it kept") {
    TempDir dir;
    TmpfsMount mnt(dir / "mnt", "size=64k");
    if (mnt.error == EPERM) {
      MESSAGE("skipped: cannot mount a tmpfs here: " << std::strerror(mnt.error));
      return;
    }
    REQUIRE(mnt.error == 0);
    std::string out = mnt.path + "/out.pgr";
    Session s({"record", "-l", out, "-i", "0.01", "--no-gzip"});
    s.ReadReadyLine();
    FillUp(mnt.path);  // a few samples more fill the file's last page
    ExitResult r = s.Wait();  // stops by itself once the disk is full
    CAPTURE(r.err);
    CHECK(r.code == 2);
    CHECK(SplitLines(r.err).size() == 1);
    CHECK(r.err.rfind("perfmonger record: error: ", 0) == 0);
    CHECK(r.err.find("No space left on device") != std::string::npos);
    CHECK(r.err.find(out) != std::string::npos);

    Recording rec = ReadRecording(out);
    CHECK(CheckUncleanRecording(rec) >= 1);
  }
}

// In place: the recorder keeps its /proc files open and preads them.
void Rewrite(const std::string& path, const std::string& text) {
  WriteAll(OpenAt(AT_FDCWD, path, O_WRONLY | O_TRUNC).Get(), text);
}

TEST_SUITE("faults") {
  TEST_CASE("a full disk before the first flush: exit 1, no file left") {
    TempDir dir;
    TmpfsMount mnt(dir / "mnt", "size=64k");
    if (mnt.error == EPERM) {
      MESSAGE("skipped: cannot mount a tmpfs here: " << std::strerror(mnt.error));
      return;
    }
    REQUIRE(mnt.error == 0);
    FillUp(mnt.path);
    std::string out = mnt.path + "/out.pgr.gz";
    Session s({"record", "-l", out, "-i", "0.05"});
    CHECK(s.ready().ReadLine(DefaultDeadline()) == std::nullopt);  // never ready
    ExitResult r = s.Wait();
    CAPTURE(r.err);
    CHECK(r.code == 1);
    CHECK(SplitLines(r.err).size() == 1);
    CHECK(r.err.find("No space left on device") != std::string::npos);
    CHECK(r.err.find("kept") == std::string::npos);
    CHECK_FALSE(std::filesystem::exists(out));
  }

  TEST_CASE("the parent killed while holding the stop fd: a clean stop") {
    TempDir dir;
    std::string out = dir / "out.pgr.gz";
    Pipe stop = MakePipe();
    Pipe ready = MakePipe();
    SpawnOptions holder_options;  // the "parent": holds the write end
    holder_options.program = "/bin/sleep";
    holder_options.args = {"3600"};
    holder_options.fds.emplace_back(3, std::move(stop.write_end));
    Child holder(std::move(holder_options));
    SpawnOptions options;
    options.args = {"record", "-l", out, "-i", "0.05", "--ready-fd", "3", "--stop-fd", "4"};
    options.fds.emplace_back(3, std::move(ready.write_end));
    options.fds.emplace_back(4, std::move(stop.read_end));
    Child recorder(std::move(options));
    LineInput ready_in(std::move(ready.read_end));
    REQUIRE(ready_in.ReadLine(DefaultDeadline()));
    holder.Signal(SIGKILL);
    ExitResult r = recorder.Wait();
    CAPTURE(r.err);
    CHECK(r.code == 0);
    CHECK(CheckCleanRecording(out, "stop-fd") >= 2);
  }

  // The stopped recorder misses deadlines; on SIGCONT one wake-up reports
  // them all: counted as missed ticks, not caught up with a burst.
  TEST_CASE("SIGSTOP then SIGCONT: missed ticks counted, no burst") {
    TempDir dir;
    std::string out = dir / "out.pgr";
    constexpr int64_t kIntervalMs = 20, kStoppedMs = 300;
    Session s({"record", "-l", out, "-i", "20ms"});
    s.ReadReadyLine();
    WaitForSamples(out, 3, DefaultDeadline());
    StopAndWait(s.child());
    // Quiet for the whole window: nothing is written while stopped.
    size_t before = CountSampleLines(ReadRecording(out));
    CHECK(QuietUntil(out, After(std::chrono::milliseconds(kStoppedMs))));
    s.child().Signal(SIGCONT);
    WaitForSamples(out, before + 3, DefaultDeadline());
    s.CloseStop();
    ExitResult r = s.Wait();
    CAPTURE(r.err);
    CHECK(r.code == 0);
    size_t samples = CheckCleanRecording(out, "stop-fd");
    Recording rec = ReadRecording(out);
    Json end(rec.lines.back());
    int64_t missed = end.Int("missed_ticks");
    int64_t first = Json(rec.lines[1]).Int("mono");
    int64_t last = Json(rec.lines[rec.lines.size() - 2]).Int("mono");
    int64_t ticks = (last - first) / (kIntervalMs * 1'000'000);
    CAPTURE(missed);
    CAPTURE(samples);
    CAPTURE(ticks);
    CHECK(missed >= kStoppedMs / kIntervalMs - 2);
    // One sample per tick at most, plus the first and the final one.
    CHECK(static_cast<int64_t>(samples) + missed <= ticks + 2);
  }

  TEST_CASE("a disk, an interface, a CPU and meminfo vanish: null, recording goes on") {
    FakeProc fake(CountersAt(0));
    TempDir dir;
    std::string out = dir / "out.pgr";
    CommandSession s({"record", "--root", fake.root(), "-l", out, "-i", "3600"});
    s.ReadReadyLine();
    Rewrite(fake.root() + "/proc/diskstats", "");
    Rewrite(fake.root() + "/proc/net/dev", "h1\nh2\n");
    Rewrite(fake.root() + "/proc/stat",
            "cpu 1 2 3 4 5 6 7 8 9 10\ncpu0 1 2 3 4 5 6 7 8 9 10\nctxt 1\nprocesses 2\n");
    Rewrite(fake.root() + "/proc/meminfo", "");
    REQUIRE(bool(s.Command("sample").root()["ok"]));
    fake.Write(CountersAt(2));  // they come back
    REQUIRE(bool(s.Command("sample").root()["ok"]));
    s.Command("stop");
    ExitResult r = s.Wait();
    CAPTURE(r.err);
    CHECK(r.code == 0);
    Recording rec = ReadRecording(out);
    REQUIRE(rec.lines.size() == 6);  // header, 4 samples, end
    const std::string& gone = rec.lines[2];
    CAPTURE(gone);
    CHECK(gone.find(R"("disk":[null])") != std::string::npos);
    CHECK(gone.find(R"("net":[null])") != std::string::npos);
    CHECK(gone.find(R"(,null],"proc")") != std::string::npos);  // cpu1
    CHECK(gone.find(R"("mem":null)") != std::string::npos);
    CHECK(rec.lines[3].find(R"("mem":[)") != std::string::npos);
    ExitResult play = Run({"play", out});
    CAPTURE(play.err);
    CHECK(play.code == 0);
    // The stop's sample repeats the last counters: a pair all the same.
    CHECK(SplitLines(play.out).size() == 3);
    CHECK(play.err.empty());
  }

  TEST_CASE("memory above INT64_MAX reads back unsigned") {
    FakeCounters c = CountersAt(0), d = CountersAt(1);  // CPU ticks pass
    c.mem_total = d.mem_total = 18446744073709551000u;
    FakeProc fake(c);
    TempDir dir;
    std::string out = dir / "out.pgr";
    RecordFake(fake, out, {c, d});
    ExitResult play = Run({"play", out});
    CAPTURE(play.err);
    CHECK(play.code == 0);
    CHECK(play.out.find(R"("mem_total":18446744073709551000,)") != std::string::npos);
    ExitResult summary = Run({"summary", "--all", out});
    CHECK(summary.out.find("mem total: 18446744073709551000 kB") != std::string::npos);
  }
}

}  // namespace
}  // namespace pm::test

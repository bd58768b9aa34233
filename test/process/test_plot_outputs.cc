// What `plot` leaves when its disk is full or it is stopped. gnuplot
// reports no failed write (on a full disk it leaves an empty chart and
// exits 0), so plot checks each chart it drew; a full disk, under -o or
// under TMPDIR (where gnuplot draws), is one line naming it, exit status
// 1, and no empty or cut-short file left. SIGINT or SIGTERM kill gnuplot
// and remove plot's scratch directory before plot dies by the signal.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "common/io.hh"
#include "test/process/fake_proc.hh"
#include "test/process/plot_checks.hh"
#include "test/process/recording.hh"

namespace pm::test {
namespace {

namespace fs = std::filesystem;

// A tmpfs of `size` mounted at `dir` for the test's lifetime. Only root may
// mount one: elsewhere available() is false and why_not() says why.
class SmallTmpfs {
 public:
  SmallTmpfs(const std::string& dir, const std::string& size) : dir_(dir) {
    fs::create_directory(dir);
    if (geteuid() != 0) {
      why_not_ = "not root: cannot mount a small tmpfs";
    } else if (mount("tmpfs", dir.c_str(), "tmpfs", 0, ("size=" + size).c_str()) != 0) {
      why_not_ = std::string("mounting a tmpfs failed: ") + std::strerror(errno);
    }
  }
  ~SmallTmpfs() {
    if (available()) umount2(dir_.c_str(), MNT_DETACH);
  }
  bool available() const { return why_not_.empty(); }
  const std::string& why_not() const { return why_not_; }

  // A file taking all the room but `leave` bytes.
  void Fill(uint64_t leave = 0) const {
    struct statvfs st;
    REQUIRE(statvfs(dir_.c_str(), &st) == 0);
    uint64_t room = static_cast<uint64_t>(st.f_bavail) * st.f_frsize;
    REQUIRE(room >= leave);
    UniqueFd fd = OpenAt(AT_FDCWD, dir_ + "/filler", O_WRONLY | O_CREAT | O_EXCL, 0600);
    std::string zeros(room - leave, '\0');
    ssize_t n = write(fd.Get(), zeros.data(), zeros.size());
    CHECK((n == static_cast<ssize_t>(zeros.size()) || (leave == 0 && n >= 0)));
  }

 private:
  std::string dir_;
  std::string why_not_;
};

std::vector<std::string> Entries(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir))
    names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// Every page the data files and scripts of a plot take, plus one.
uint64_t InputBytes(const std::string& dir) {
  uint64_t bytes = 4096;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().extension() == ".dat" || entry.path().extension() == ".gp")
      bytes += (fs::file_size(entry.path()) + 4095) / 4096 * 4096;
  return bytes;
}

// A stand-in for gnuplot that says it is drawing (its pid, on the FIFO
// $PM_TEST_READY), then waits for ever on the FIFO $PM_TEST_HOLD.
std::string StalledGnuplot(const TempDir& dir) {
  std::string path = dir / "gnuplot";
  WriteFile(path, "#!/bin/sh\necho $$ > \"$PM_TEST_READY\"\nexec cat \"$PM_TEST_HOLD\"\n");
  REQUIRE(chmod(path.c_str(), 0755) == 0);
  return path;
}

}  // namespace

TEST_SUITE("plot outputs") {
  TEST_CASE("plot: a full disk under -o is one line naming it, no empty file left") {
    TempDir dir;
    fs::create_directory(dir / "tmp");
    const std::vector<std::string> runs[] = {{"-T", "png"}, {}, {"--report"}};
    for (const std::vector<std::string>& options : runs) {
      CAPTURE(options.size());
      SmallTmpfs full(dir / "full", "256k");
      if (!full.available()) {
        MESSAGE("skipped: " << full.why_not());
        return;
      }
      fs::create_directory(dir / "full/charts");
      full.Fill();
      std::vector<std::string> args = options;
      args.insert(args.end(), {"-o", dir / "full/charts", LegacyFile("busy100.pgr")});
      ExitResult r = RunPlot(args, {"TMPDIR=" + dir / "tmp"});
      CAPTURE(r.out);
      CHECK(r.code == 1);
      CHECK(r.err.starts_with("perfmonger plot: error: writing " + dir / "full/charts/"));
      CHECK(r.err.find(" (the file system holding " + dir / "full/charts" +
                       " is full): No space left on device\n") != std::string::npos);
      CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
      CHECK(r.out.empty());  // no chart listed
      CHECK(Entries(dir / "full/charts").empty());
      CHECK(Entries(dir / "tmp").empty());
    }
  }

  TEST_CASE("plot: a full disk under TMPDIR, where gnuplot draws, is named; nothing is left") {
    TempDir dir;
    fs::create_directory(dir / "saved");
    ExitResult saved = RunPlot({"-s", "-T", "png", "-o", dir / "saved", LegacyFile("busy100.pgr")});
    REQUIRE(saved.code == 0);
    SmallTmpfs full(dir / "full", "1m");
    if (!full.available()) {
      MESSAGE("skipped: " << full.why_not());
      return;
    }
    full.Fill(InputBytes(dir / "saved"));  // room for the data files and scripts only
    fs::create_directory(dir / "charts");
    ExitResult r = RunPlot({"-T", "png", "-o", dir / "charts", LegacyFile("busy100.pgr")},
                           {"TMPDIR=" + dir / "full"});
    CAPTURE(r.err);
    CHECK(r.code == 1);
    // Where the space ran out depends on the build's sizes (a sanitized
    // perfmonger may run out on a data file, before gnuplot): either way
    // one line naming the full file system below TMPDIR.
    CHECK(r.err.starts_with("perfmonger plot: error: "));
    CHECK(r.err.find(dir / "full/") != std::string::npos);
    CHECK(r.err.find(" is full") != std::string::npos);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK(Entries(dir / "charts").empty());
    CHECK(Entries(dir / "full") == std::vector<std::string>{"filler"});
  }

  TEST_CASE("plot: SIGINT or SIGTERM kills gnuplot, removes the scratch directory, then plot") {
    for (int signo : {SIGINT, SIGTERM}) {
      CAPTURE(signo);
      TempDir dir;
      fs::create_directory(dir / "tmp");
      std::string ready = dir / "ready", hold = dir / "hold";
      REQUIRE(mkfifo(ready.c_str(), 0600) == 0);
      REQUIRE(mkfifo(hold.c_str(), 0600) == 0);
      LineInput drawing(OpenAt(AT_FDCWD, ready, O_RDONLY | O_NONBLOCK));
      SpawnOptions options;
      options.args = {"plot", "--with-gnuplot", StalledGnuplot(dir), "-o", dir / "charts",
                      LegacyFile("busy100.pgr")};
      options.env = {"TMPDIR=" + dir / "tmp", "PM_TEST_READY=" + ready, "PM_TEST_HOLD=" + hold};
      Child plot(std::move(options));
      std::optional<std::string> line = drawing.ReadLine(DefaultDeadline());
      REQUIRE(line);
      pid_t gnuplot = std::stoi(*line);
      REQUIRE(Entries(dir / "tmp").size() == 1);  // the scratch directory, while drawing
      plot.Signal(signo);
      ExitResult r = plot.Wait();
      CHECK(r.signal == signo);
      CHECK(r.err.empty());
      CHECK(Entries(dir / "tmp").empty());
      bool gnuplot_left = ProcessRunning(gnuplot);
      CHECK(!gnuplot_left);
      if (gnuplot_left) kill(gnuplot, SIGKILL);  // its parent is gone: init reaps it
    }
  }
}

}  // namespace pm::test

// Outputs in a directory every user may write (sticky and world-writable,
// as /tmp): another user can plant a symlink, or a hard link, at the path an
// output will have, so that writing it overwrites a file of ours; a FIFO,
// so that opening it waits for ever; a file of their own, so that our
// output lands in a file they keep. Whatever fs.protected_symlinks,
// protected_regular and protected_fifos say, such a symlink, FIFO or file
// (not ours, not the directory owner's) and a hard-linked file are refused
// at once with one line naming the path and why, and the file they name is
// untouched. That holds for the charts too, which gnuplot draws: it draws
// them in plot's private scratch directory, never at the output path.
// Elsewhere, and for a symlink of one's own, links are followed as before.
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>

#include <filesystem>
#include <string>
#include <vector>

#include "test/process/fake_proc.hh"
#include "test/process/other_user.hh"
#include "test/process/plot_checks.hh"

namespace pm::test {
namespace {

namespace fs = std::filesystem;

struct Output {
  const char* command;
  std::string name;                             // in the shared directory
  std::vector<std::string> Args(const std::string& path) const;
};

std::vector<std::string> Output::Args(const std::string& path) const {
  std::string c = command;
  if (c == "record") return {"record", "-i", "0.1", "-t", "0.2", "--no-gzip", "-l", path};
  if (c == "fingerprint") return {"fingerprint", path};
  // plot --save writes its data files and scripts into -o DIR.
  return {"plot", "-s", "-o", fs::path(path).parent_path().string(), LegacyFile("busy100.pgr")};
}

// `perfmonger ARGS`, time for plot's gnuplot runs included.
ExitResult Perfmonger(const std::vector<std::string>& args) {
  if (args[0] == "plot") return RunPlot({args.begin() + 1, args.end()});
  SpawnOptions options;
  options.args = args;
  return Child(std::move(options)).Wait(After(std::chrono::seconds(60)));
}

std::string SharedDir(const TempDir& dir) {
  std::string shared = dir / "shared";
  fs::create_directory(shared);
  fs::permissions(shared, fs::perms::all | fs::perms::sticky_bit);
  return shared;
}

const Output kOutputs[] = {
    {"record", "out.pgr"}, {"fingerprint", "fp.tar.gz"}, {"plot", "cpu.dat"}};

// A chart gnuplot draws, at `name` in -o (the shared directory) or, with no
// -o, in the working directory.
struct Chart {
  std::vector<std::string> options;
  std::string name;
  bool in_cwd = false;
  std::vector<std::string> Args(const std::string& shared) const {
    std::vector<std::string> args = options;
    if (!in_cwd) args.insert(args.end(), {"-o", shared});
    args.push_back(LegacyFile("busy100.pgr"));
    return args;
  }
};

const Chart kCharts[] = {
    {{}, "cpu.pdf"},
    {{"-T", "png"}, "cpu.png"},
    {{"-T", "svg"}, "cpu.svg"},
    {{"-s", "-T", "png"}, "cpu.png"},
    {{"--report", "-T", "pdf"}, "report.pdf"},
    {{"-T", "png"}, "cpu.png", true},
};

std::string Refusal(const std::string& command, const std::string& path,
                    const std::string& shared, const std::string& why) {
  return "perfmonger " + command + ": error: refusing " + path + ": " + why +
         " in the shared directory " + shared +
         ", where another user may have planted it; remove it or write elsewhere\n";
}

// Planted as `user`'s: a FIFO (nobody reads it) or a file holding "theirs\n".
void PlantTheirs(const OtherUser& user, const std::string& path, bool fifo) {
  if (fifo) REQUIRE(mkfifo(path.c_str(), 0666) == 0);
  else WriteFile(path, "theirs\n");
  REQUIRE(chmod(path.c_str(), 0666) == 0);
  REQUIRE(lchown(path.c_str(), user.uid(), user.gid()) == 0);
}

// An output whose path someone else's FIFO or file may hold.
struct OutputAt {
  const char* command;
  std::vector<std::string> args;  // "PATH" stands for the path
  std::string name;
};

std::vector<std::string> WithPath(std::vector<std::string> args, const std::string& path) {
  for (std::string& a : args)
    if (a == "PATH") a = path;
  return args;
}

ExitResult PerfmongerWithin(const std::vector<std::string>& args, std::chrono::seconds limit) {
  SpawnOptions options;
  options.args = args;
  return Child(std::move(options)).Wait(After(limit));
}

}  // namespace

TEST_SUITE("shared directories") {
  TEST_CASE("another user's symlink or a hard link at an output path: refused, its file intact") {
    OtherUser user;
    if (!user.available()) {
      MESSAGE("skipped: " << user.why_not());
      return;
    }
    TempDir dir;
    std::string shared = SharedDir(dir);
    std::string ours = dir / "ours";
    WriteFile(ours, "precious\n");
    for (const Output& output : kOutputs) {
      std::string path = shared + "/" + output.name;
      CAPTURE(path);
      for (bool symlink : {true, false}) {
        CAPTURE(symlink);
        if (symlink) {
          REQUIRE(::symlink(ours.c_str(), path.c_str()) == 0);
          REQUIRE(lchown(path.c_str(), user.uid(), user.gid()) == 0);
        } else {
          REQUIRE(link(ours.c_str(), path.c_str()) == 0);
        }
        ExitResult r = Perfmonger(output.Args(path));
        CHECK(r.code == 1);
        std::string why = symlink ? "a symbolic link owned by uid " + std::to_string(user.uid())
                                  : std::string("a file with 2 hard links");
        CHECK(r.err == "perfmonger " + std::string(output.command) + ": error: refusing " +
                           path + ": " + why + " in the shared directory " + shared +
                           ", where another user may have planted it; remove it or write "
                           "elsewhere\n");
        CHECK(ReadFileBytes(ours) == "precious\n");
        CHECK(fs::is_symlink(path) == symlink);  // left where it was
        fs::remove(path);
      }
    }
  }

  TEST_CASE("another user's symlink or a hard link at a chart's path: refused, its file intact") {
    OtherUser user;
    if (!user.available()) {
      MESSAGE("skipped: " << user.why_not());
      return;
    }
    TempDir dir;
    std::string shared = SharedDir(dir);
    std::string ours = dir / "ours";
    WriteFile(ours, "precious\n");
    for (const Chart& chart : kCharts) {
      std::string path = shared + "/" + chart.name;
      CAPTURE(path);
      CAPTURE(chart.options.size());
      CAPTURE(chart.in_cwd);
      for (bool symlink : {true, false}) {
        CAPTURE(symlink);
        if (symlink) {
          REQUIRE(::symlink(ours.c_str(), path.c_str()) == 0);
          REQUIRE(lchown(path.c_str(), user.uid(), user.gid()) == 0);
        } else {
          REQUIRE(link(ours.c_str(), path.c_str()) == 0);
        }
        ExitResult r = RunPlot(chart.Args(shared), {"TMPDIR=" + dir.path()},
                               chart.in_cwd ? shared : "");
        CHECK(r.code == 1);
        std::string why = symlink ? "a symbolic link owned by uid " + std::to_string(user.uid())
                                  : std::string("a file with 2 hard links");
        CHECK(r.err == Refusal("plot", path, shared, why));
        CHECK(ReadFileBytes(ours) == "precious\n");
        CHECK(fs::is_symlink(path) == symlink);  // left where it was
        fs::remove(path);
        for (const auto& entry : fs::directory_iterator(dir.path()))  // no scratch left
          CHECK(!entry.path().filename().string().starts_with("perfmonger-plot."));
      }
      for (const auto& entry : fs::directory_iterator(shared)) fs::remove(entry.path());
    }
  }

  TEST_CASE("another user's FIFO or file at an output path: refused at once, theirs intact") {
    OtherUser user;
    if (!user.available()) {
      MESSAGE("skipped: " << user.why_not());
      return;
    }
    TempDir dir;
    std::string shared = SharedDir(dir);
    const OutputAt outputs[] = {
        {"record", {"record", "-i", "0.1", "-t", "0.2", "--no-gzip", "-l", "PATH"}, "out.pgr"},
        {"fingerprint", {"fingerprint", "PATH"}, "fp.tar.gz"},
        {"plot", {"plot", "--report", "-o", shared, LegacyFile("busy100.pgr")}, "report.html"},
        {"plot", {"plot", "-T", "png", "-o", shared, LegacyFile("busy100.pgr")}, "cpu.png"},
    };
    for (const OutputAt& output : outputs) {
      std::string path = shared + "/" + output.name;
      CAPTURE(path);
      for (bool fifo : {true, false}) {
        CAPTURE(fifo);
        PlantTheirs(user, path, fifo);
        // Opening a FIFO nobody reads would wait for ever: 60 s is "never".
        ExitResult r = PerfmongerWithin(WithPath(output.args, path), std::chrono::seconds(60));
        CHECK(r.code == 1);
        CHECK(r.err == Refusal(output.command, path, shared,
                               std::string(fifo ? "a FIFO" : "a file") + " owned by uid " +
                                   std::to_string(user.uid())));
        struct stat st;
        REQUIRE(lstat(path.c_str(), &st) == 0);
        CHECK(st.st_uid == user.uid());
        CHECK(S_ISFIFO(st.st_mode) == fifo);
        if (!fifo) CHECK(ReadFileBytes(path) == "theirs\n");
        fs::remove(path);
      }
      for (const auto& entry : fs::directory_iterator(shared)) fs::remove(entry.path());
    }
  }

  TEST_CASE("a FIFO nobody reads at fingerprint's or a report's path: refused, not waited on") {
    TempDir dir;
    std::string fifo = dir / "out.tar.gz";
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    const OutputAt outputs[] = {
        {"fingerprint", {"fingerprint", fifo}, ""},
        {"plot", {"plot", "--report", "-p", "out-", "-o", dir.path(), LegacyFile("busy100.pgr")},
         ""},
    };
    REQUIRE(::symlink(fifo.c_str(), (dir / "out-report.html").c_str()) == 0);
    for (const OutputAt& output : outputs) {
      CAPTURE(output.command);
      ExitResult r = PerfmongerWithin(output.args, std::chrono::seconds(60));
      CHECK(r.code == 1);
      CHECK(r.err.find(" is a FIFO that nobody reads; start its reader first\n") !=
            std::string::npos);
    }
  }

  TEST_CASE("a symlink of one's own in a shared directory is followed, as one elsewhere") {
    TempDir dir;
    std::string shared = SharedDir(dir);
    fs::create_directory(dir / "private");
    for (const std::string& link_dir : {shared, dir / "private"}) {
      std::string target = dir / ("target-" + fs::path(link_dir).filename().string() + ".pgr");
      std::string path = link_dir + "/out.pgr";
      REQUIRE(::symlink(target.c_str(), path.c_str()) == 0);
      ExitResult r = Perfmonger(kOutputs[0].Args(path));
      CAPTURE(r.err);
      CHECK(r.code == 0);
      CHECK(ReadFileBytes(target).starts_with("{\"format\":\"perfmonger-pgr\""));
    }
  }
}

}  // namespace pm::test

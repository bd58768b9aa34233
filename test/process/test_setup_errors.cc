// Every way to mis-invoke `record`: exit 1, no output file, and exactly one
// line on stderr, `perfmonger record: error: ...`, naming what was wrong.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <filesystem>
#include <functional>

#include "common/io.hh"
#include "test/process/fake_proc.hh"
#include "test/process/spawn.hh"

namespace pm::test {
namespace {

using Wiring = std::function<void(SpawnOptions&, const TempDir&)>;

struct ErrorCase {
  const char* name;
  std::vector<std::string> args;  // after `record -l OUT`
  Wiring wiring;                  // fds for the child; none if empty
  const char* mentions;           // the message names this
};

Wiring PipeEndAt(int target, bool write_end) {
  return [=](SpawnOptions& o, const TempDir&) {
    Pipe p = MakePipe();
    o.fds.emplace_back(target, std::move(write_end ? p.write_end : p.read_end));
  };
}

Wiring PipeEnds(Wiring first, Wiring second) {
  return [=](SpawnOptions& o, const TempDir& dir) {
    first(o, dir);
    second(o, dir);
  };
}

Wiring ReadyAndStopPipes(int ready, int stop) {
  return PipeEnds(PipeEndAt(ready, true), PipeEndAt(stop, false));
}

Wiring StopPipeWithWriterAt(int stop, int writer) {
  return [=](SpawnOptions& o, const TempDir&) {
    Pipe p = MakePipe();
    o.fds.emplace_back(stop, std::move(p.read_end));
    o.fds.emplace_back(writer, std::move(p.write_end));
  };
}

Wiring RegularFileAt(int target) {
  return [=](SpawnOptions& o, const TempDir& dir) {
    o.fds.emplace_back(target, OpenAt(AT_FDCWD, dir / "plain-file",
                                      O_RDWR | O_CREAT, 0600));
  };
}

const std::vector<ErrorCase>& Cases() {
  static const std::vector<ErrorCase> cases = {
      {"ready fd not open", {"--ready-fd", "7"}, {}, "fd 7 is closed"},
      {"stop fd not open", {"--stop-fd", "7"}, {}, "fd 7 is closed"},
      {"stop fd is a pipe's write end", {"--stop-fd", "5"}, PipeEndAt(5, true),
       "write-only"},
      {"ready fd is a pipe's read end", {"--ready-fd", "5"}, PipeEndAt(5, false),
       "read-only"},
      {"one fd for ready and stop", {"--ready-fd", "5", "--stop-fd", "5"},
       PipeEndAt(5, true), "5"},
      {"stop fd a regular file", {"--stop-fd", "5"}, RegularFileAt(5),
       "--stop-fd"},
      {"stop fd 0 on /dev/null", {"--stop-fd", "0"}, {}, "--stop-fd"},
      {"background with ready fd", {"--background", "--ready-fd", "3"},
       ReadyAndStopPipes(3, 4), "--background"},
      {"background with stop fd", {"--background", "--stop-fd", "4"},
       ReadyAndStopPipes(3, 4), "--background"},
      {"meta without =", {"--meta", "novalue"}, {}, "novalue"},
      {"meta with a bad escape", {"--meta", "k=%zz"}, {}, "%zz"},
      {"meta key twice", {"--meta", "k=1", "--meta", "k=2"}, {}, "k"},
      {"meta value not UTF-8", {"--meta", "k=\xff\xfe"}, {},
       "--meta 'k=\\xff\\xfe': the value of key 'k' is not UTF-8"},
      {"meta value percent-encoded not UTF-8", {"--meta", "q=%C3"}, {},
       "the value of key 'q' is not UTF-8"},
      {"an empty output path", {"-l", ""}, {},
       "-l '': the output path is empty; name a file, or - for standard output"},
      {"an empty output path in the background", {"--background", "-l", ""}, {},
       "-l '': the output path is empty"},
      {"interval not a duration", {"-i", "abc"}, {}, "abc"},
      {"unknown option", {"--frobnicate"}, {}, "--frobnicate"},
      {"a long option without its value", {"--ready-fd"}, {}, "needs a value: --ready-fd"},
      {"a short option without its value", {"-i"}, {}, "needs a value: -i"},
      {"unknown disk", {"-d", "nosuchdisk"}, {}, "nosuchdisk"},
      {"cmd fd not open", {"--cmd-fd", "7"}, {}, "fd 7 is closed"},
      {"-l - and the ready fd on stdout", {"-l", "-", "--ready-fd", "1"}, {},
       "--ready-fd=1 names it too"},
      // The parent forgot its copy of the stop pipe's write end in the child.
      {"the stop pipe's write end inherited too", {"--stop-fd", "5"}, StopPipeWithWriterAt(5, 8),
       "fd 8 is the write end of the same pipe"},
      {"cmd fd is a pipe's write end", {"--cmd-fd", "5"}, PipeEndAt(5, true),
       "write-only"},
      {"ack fd is a pipe's read end", {"--cmd-fd", "5", "--ack-fd", "6"},
       PipeEnds(PipeEndAt(5, false), PipeEndAt(6, false)), "read-only"},
      {"one fd for cmd and ack", {"--cmd-fd", "5", "--ack-fd", "5"},
       PipeEndAt(5, false), "5"},
      {"start paused without a cmd fd", {"--start-paused"}, {}, "--start-paused"},
      {"ack fd without a cmd fd", {"--ack-fd", "6"}, PipeEndAt(6, true), "--ack-fd"},
      {"background with a cmd fd", {"--background", "--cmd-fd", "5"},
       PipeEndAt(5, false), "--background"},
  };
  return cases;
}

void CheckOneErrorLine(const ExitResult& r, const std::string& mentions) {
  CHECK(r.code == 1);
  CHECK(r.signal == 0);
  std::vector<std::string> lines = SplitLines(r.err);
  CHECK(lines.size() == 1);
  CHECK((!r.err.empty() && r.err.back() == '\n'));
  CHECK(r.err.rfind("perfmonger record: error: ", 0) == 0);
  CHECK(r.err.find(mentions) != std::string::npos);
}

std::vector<std::string> Entries(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    names.push_back(e.path().filename().string());
  return names;
}

TEST_SUITE("setup errors") {
  TEST_CASE("each setup error: exit 1, one error line, nothing written") {
    for (const ErrorCase& c : Cases()) {
      std::string name = c.name;
      CAPTURE(name);
      TempDir dir;
      std::filesystem::create_directory(dir / "rec");
      SpawnOptions options;
      options.args = {"record", "-l", dir / "rec/out.pgr.gz"};
      options.args.insert(options.args.end(), c.args.begin(), c.args.end());
      options.env = {"TMPDIR=" + dir.path()};  // a stray --background stays here
      if (c.wiring) c.wiring(options, dir);
      ExitResult r = Child(std::move(options)).Wait();
      CAPTURE(r.err);
      CheckOneErrorLine(r, c.mentions);
      CHECK(Entries(dir / "rec").empty());
    }
  }

  // The recorder's own fds (its loop, pipes, /proc files) must not pass
  // for an fd the parent handed over, whatever their numbers.
  TEST_CASE("any fd number the parent did not pass is not open") {
    for (int fd : {3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 63}) {
      for (const char* flag : {"--ready-fd", "--stop-fd"}) {
        std::string arg = std::string(flag) + "=" + std::to_string(fd);
        CAPTURE(arg);
        TempDir dir;
        ExitResult r = Run({"record", "-l", dir / "out.pgr.gz", arg});
        CAPTURE(r.err);
        CheckOneErrorLine(r, "fd " + std::to_string(fd) + " is closed");
        CHECK(Entries(dir.path()).empty());
      }
    }
  }

  // The seed recipe's trap: with only stdio open pipe() returns 3-6, and a
  // child that closes the "originals" after dup2 closes fds 3 and 4 too.
  TEST_CASE("the recipe's trap: both closed fds named, and what happened") {
    TempDir dir;
    ExitResult r = Run({"-c",
                        "exec 3>&- 4<&- \"$0\" record -l \"$1\" --ready-fd 3 --stop-fd 4",
                        PerfmongerPath(), dir / "out.pgr"},
                       "/bin/sh");
    CAPTURE(r.err);
    CheckOneErrorLine(r, "--ready-fd=3, --stop-fd=4: fds 3 and 4 are closed: the "
                         "parent's child code closed them after dup2 (close the pipe "
                         "ends before dup2, or move them above 4)");
    CHECK(Entries(dir.path()).empty());
  }

  TEST_CASE("an output in a missing directory: exit 1, nothing created") {
    TempDir dir;
    std::string out = dir / "nonexistent/dir/out.pgr.gz";
    ExitResult r = Run({"record", "-l", out, "-i", "0.1", "-t", "1"});
    CAPTURE(r.err);
    CheckOneErrorLine(r, out);
    CHECK_FALSE(std::filesystem::exists(dir / "nonexistent"));
    CHECK(Entries(dir.path()).empty());
  }

  // Each message names what the user gave, not what it became inside.
  TEST_CASE("a directory as -l, and --root trees, named as given") {
    TempDir dir;
    std::filesystem::create_directory(dir / "adir");
    ExitResult r = Run({"record", "-l", dir / "adir", "-t", "1"});
    CAPTURE(r.err);
    CheckOneErrorLine(r, dir / "adir" + " is a directory: -l names the recording file, as "
                         "in -l " + dir / "adir" + "/perfmonger.pgr.gz");
    CHECK(r.err.find("create its directory") == std::string::npos);
    CHECK(Entries(dir / "adir").empty());

    r = Run({"record", "-l", dir / "out.pgr", "--root", dir / "missing", "-t", "1"});
    CheckOneErrorLine(r, "--root " + dir / "missing" + ": No such file or directory (give "
                         "the directory that holds the proc/ and sys/ trees)");
    std::filesystem::create_directory(dir / "empty");
    r = Run({"record", "-l", dir / "out.pgr", "--root", dir / "empty", "-t", "1"});
    CheckOneErrorLine(r, "cannot open " + dir / "empty/proc/stat" + ": No such file");
    FakeProc bad(CountersAt(0));
    std::string diskstats = bad.root() + "/proc/diskstats";
    WriteAll(OpenAt(AT_FDCWD, diskstats, O_WRONLY | O_TRUNC).Get(), "junk\n");
    r = Run({"record", "-l", dir / "out.pgr", "--root", bad.root(), "-t", "1"});
    CheckOneErrorLine(r, diskstats + ":1: expected 'major minor name'");
    CHECK_FALSE(std::filesystem::exists(dir / "out.pgr"));
  }

  // Opened non-blocking and refused: never waited on for a writer, which
  // with the stop signals blocked nothing but SIGKILL could end.
  TEST_CASE("a FIFO as a --root tree's proc file: refused at once, not waited on") {
    TempDir dir;
    FakeProc fifo(CountersAt(0));
    std::string net_dev = fifo.root() + "/proc/net/dev";
    std::filesystem::remove(net_dev);
    REQUIRE(mkfifo(net_dev.c_str(), 0600) == 0);
    ExitResult r = Run({"record", "-l", dir / "out.pgr", "--root", fifo.root(), "-i", "0.1",
                        "-t", "1"});
    CheckOneErrorLine(r, net_dev + " is not a regular file");
    CHECK_FALSE(std::filesystem::exists(dir / "out.pgr"));
  }

  TEST_CASE("a setup error closes the ready fd without a line") {
    TempDir dir;
    Pipe ready = MakePipe();
    SpawnOptions options;
    options.args = {"record", "-l", dir / "out.pgr.gz", "--ready-fd", "3",
                    "--meta", "bad"};
    options.fds.emplace_back(3, std::move(ready.write_end));
    Child child(std::move(options));
    LineInput ready_in(std::move(ready.read_end));
    CHECK(ready_in.ReadToEof(DefaultDeadline()).empty());
    ExitResult r = child.Wait();
    CheckOneErrorLine(r, "bad");
    CHECK_FALSE(std::filesystem::exists(dir / "out.pgr.gz"));
  }
}

}  // namespace
}  // namespace pm::test

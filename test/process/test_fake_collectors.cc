// record --root on a fake tree with pressure, a process and a cgroup whose
// files a test rewrites between samples: counters that go backwards give
// 0, never a negative rate; a process that exits and a group removed turn
// null; the recording goes on and plays back. On a hybrid tree, --cgroup /
// is the cgroup2 mount's root group.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "test/process/fake_proc.hh"

namespace pm::test {
namespace {

struct Extra {
  std::string root;
  void Write(uint64_t k, bool alive) const {
    std::string n = std::to_string(k);
    WriteFile(root + "/proc/pressure/cpu", "some avg10=0 avg60=0 avg300=0 total=" + n +
                                               "00000\nfull avg10=0 avg60=0 avg300=0 total=0\n");
    WriteFile(root + "/proc/42/stat",
              alive ? "42 (job) R 1 42 42 0 -1 0 0 0 0 0 " + n + "0 " + n + " 0 0 20 0 1 0 1 2 3\n"
                    : "");
    WriteFile(root + "/proc/42/io", "rchar: " + n + "000\nwchar: 0\nsyscr: 1\nsyscw: 1\n"
                                    "read_bytes: 0\nwrite_bytes: " + n + "000\n");
    WriteFile(root + "/proc/42/task/42/schedstat", n + "0000000 " + n + "000 1\n");
    WriteFile(root + "/sys/fs/cgroup/g/cpu.stat",
              alive ? "usage_usec " + n + "00000\nuser_usec 0\nsystem_usec 0\n" : "");
  }
};

}  // namespace

TEST_SUITE("collectors on the real machine") {
  TEST_CASE("--root: backwards counters give 0, an exited process and a removed group null") {
    FakeProc proc(CountersAt(0));
    Extra extra{proc.root()};
    for (const char* d : {"/proc/pressure", "/proc/42/task/42", "/sys/fs/cgroup/g"})
      std::filesystem::create_directories(proc.root() + d);
    WriteFile(proc.root() + "/sys/fs/cgroup/cgroup.controllers", "cpu\n");
    extra.Write(5, true);
    TempDir dir;
    std::string out = dir / "f.pgr";
    // --no-cpu: the fake /proc/stat never ticks, so every pair would be of
    // zero width; without the CPU total only the same instant is.
    CommandSession s({"record", "--root", proc.root(), "-l", out, "-i", "3600", "--no-cpu",
                      "--record-pressure", "--pid", "42", "--cgroup", "g"});
    s.ReadReadyLine();
    extra.Write(9, true);  // forwards
    CHECK(bool(s.Command("sample").root()["ok"]));
    extra.Write(2, true);  // backwards: a reset, not a negative rate
    CHECK(bool(s.Command("sample").root()["ok"]));
    extra.Write(3, false);  // the process exited, the group was removed
    CHECK(bool(s.Command("sample").root()["ok"]));
    s.CloseStop();
    ExitResult r = s.Wait();
    CHECK(r.code == 0);
    CHECK(r.err.find("note: process 42 is gone") != std::string::npos);
    CHECK(r.err.find("note: cgroup g is gone") != std::string::npos);
    ExitResult play = Run({"play", out});
    REQUIRE(play.code == 0);
    std::vector<std::string> lines = SplitLines(play.out);
    REQUIRE(lines.size() >= 3);
    Json forwards(lines[0]), backwards(lines[1]), gone(lines[2]);
    CHECK(double(forwards.root()["procs"]["42"]["rkbyteps"]) == 0.0);
    CHECK(double(forwards.root()["procs"]["42"]["rchar_kbyteps"]) > 0.0);
    CHECK(double(forwards.root()["cgroups"]["g"]["cores"]) > 0.0);
    for (const char* key : {"rchar_kbyteps", "wkbyteps", "usr", "sys"})
      CHECK(double(backwards.root()["procs"]["42"][key]) == 0.0);
    CHECK(double(backwards.root()["cgroups"]["g"]["cores"]) == 0.0);
    CHECK(double(backwards.root()["pressure"]["cpu"]["some"]) == 0.0);
    CHECK(gone.root()["procs"]["42"].type() == JsonValue::Type::kNull);
    CHECK(gone.root()["cgroups"]["g"].type() == JsonValue::Type::kNull);
    CHECK(double(gone.root()["pressure"]["cpu"]["some"]) >= 0.0);
    CHECK(play.out.find(":-") == std::string::npos);  // no negative number anywhere
  }

  TEST_CASE("--cgroup / on a hybrid host: the cgroup2 mount's root group") {
    FakeProc proc(CountersAt(0));
    std::string unified = proc.root() + "/sys/fs/cgroup/unified";
    std::filesystem::create_directories(proc.root() + "/sys/fs/cgroup/cpu");  // v1 beside it
    std::filesystem::create_directories(unified);
    WriteFile(unified + "/cgroup.controllers", "");
    WriteFile(unified + "/cpu.stat", "usage_usec 100\nuser_usec 60\nsystem_usec 40\n");
    TempDir dir;
    ExitResult r = Run({"record", "--root", proc.root(), "-l", dir / "r.pgr", "-i", "0.1",
                        "-t", "0.15", "--cgroup", "/"});
    CAPTURE(r.err);
    REQUIRE(r.code == 0);
    Json header(SplitLines(ReadFileBytes(dir / "r.pgr"))[0]);
    CHECK(std::string_view(header.root()["collectors"]["cgroups"]["rows"].at(0)) == "/");
  }
}

}  // namespace pm::test

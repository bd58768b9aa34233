// `perfmonger fingerprint`: a real archive, extracted by the real tar.
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "test/process/spawn.hh"

namespace pm::test {
namespace {

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

bool Exists(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

// `tar xzf ARCHIVE` in `dir`; returns tar's exit status.
int Extract(const std::string& archive, const std::string& dir) {
  SpawnOptions o;
  o.program = "/bin/tar";
  o.args = {"xzf", archive};
  o.cwd = dir;
  return Child(std::move(o)).Wait().code;
}

// A directory holding links to the given programs only: a PATH without
// the others (lspci, numactl, ...).
void LinkPrograms(const TempDir& bin, std::initializer_list<const char*> names) {
  for (const char* name : names) {
    for (const char* dir : {"/usr/bin/", "/bin/", "/usr/sbin/", "/sbin/"}) {
      std::string target = std::string(dir) + name;
      if (access(target.c_str(), X_OK) == 0) {
        REQUIRE(symlink(target.c_str(), (bin / name).c_str()) == 0);
        break;
      }
    }
  }
}

TEST_SUITE("fingerprint") {
  TEST_CASE("the archive extracts into one folder named after it") {
    TempDir dir;
    ExitResult r = Run({"fingerprint", dir / "machine"});
    REQUIRE(r.code == 0);
    CHECK(r.err.find("copy /proc/cpuinfo ... done") != std::string::npos);
    REQUIRE(Exists(dir / "machine.tar.gz"));
    REQUIRE(Extract(dir / "machine.tar.gz", dir.path()) == 0);
    CHECK(Slurp(dir / "machine/proc/cpuinfo").find("processor") != std::string::npos);
    CHECK(Slurp(dir / "machine/proc/meminfo").starts_with("MemTotal:"));
    CHECK(Exists(dir / "machine/proc/sys/fs/file-max"));
  }

  TEST_CASE("a machine without lspci still gets an archive, exit 0") {
    TempDir dir, bin;
    LinkPrograms(bin, {"df", "uname"});
    SpawnOptions o;
    o.args = {"fp", dir / "x.tgz"};
    o.env = {"PATH=" + bin.path()};
    ExitResult r = Child(std::move(o)).Wait(After(std::chrono::seconds(60)));
    CHECK(r.code == 0);
    CHECK(r.err.find("run lspci -vvv ... skipped") != std::string::npos);
    CHECK(r.err.find("run df -h ... done") != std::string::npos);
    REQUIRE(Extract(dir / "x.tgz", dir.path()) == 0);
    CHECK(Slurp(dir / "x/cmd/df-h.txt").find("Filesystem") != std::string::npos);
    CHECK_FALSE(Exists(dir / "x/cmd/lspci-vvv.txt"));
  }

  TEST_CASE("mistakes are usage errors and write nothing") {
    TempDir dir;
    ExitResult two = Run({"fingerprint", dir / "a", dir / "b"});
    CHECK(two.code == 1);
    CHECK(two.err.find("one OUTPUT at a time") != std::string::npos);
    ExitResult unknown = Run({"bukko", "--bogus"});
    CHECK(unknown.code == 1);
    CHECK_FALSE(Exists(dir / "a.tar.gz"));
    ExitResult unwritable = Run({"fingerprint", dir / "no/such/dir/x"});
    CHECK(unwritable.code == 1);
    CHECK(unwritable.err.find("perfmonger fingerprint: error:") == 0);
  }
}

}  // namespace
}  // namespace pm::test

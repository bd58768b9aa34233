// FindProgram's answers (found, missing, not runnable: and which), and the
// thin spawn wrappers: one pipe either way, the environment added to.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <system_error>

#include "common/child_spawn.hh"
#include "common/io.hh"
#include "common/program_path.hh"
#include "test/common/child_waits.hh"

namespace pm {
namespace {

// A scratch directory holding `x` (not executable), `run` (executable) and
// `dir/` (a directory), with PATH set for the test's duration.
class Scratch {
 public:
  Scratch() {
    char templ[] = "/tmp/pm-child-spawn-XXXXXX";
    REQUIRE(mkdtemp(templ));
    dir_ = templ;
    WriteFile("x", 0644);
    WriteFile("run", 0755);
    REQUIRE(mkdir((dir_ + "/dir").c_str(), 0755) == 0);
    const char* old = getenv("PATH");
    old_path_ = old ? old : "";
  }
  ~Scratch() {
    setenv("PATH", old_path_.c_str(), 1);
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
  std::string operator/(const std::string& name) const { return dir_ + "/" + name; }
  const std::string& dir() const { return dir_; }

 private:
  void WriteFile(const std::string& name, mode_t mode) {
    UniqueFd fd = OpenAt(AT_FDCWD, dir_ + "/" + name, O_WRONLY | O_CREAT, mode);
    WriteAll(fd.Get(), "#!/bin/sh\nexit 0\n");
    REQUIRE(fchmod(fd.Get(), mode) == 0);
  }
  std::string dir_, old_path_;
};

int ExitCode(SpawnedChild& child) {
  int status = WaitExit(child);
  REQUIRE(WIFEXITED(status));
  return WEXITSTATUS(status);
}

TEST_SUITE("child_spawn") {
  TEST_CASE("FindProgram: a path as it is, with the reason it cannot run") {
    Scratch s;
    CHECK(FindProgram(s / "run").path == s / "run");
    ProgramLookup missing = FindProgram(s / "missing");
    CHECK(missing.error == ENOENT);
    CHECK(missing.reason == "not found");
    ProgramLookup dir = FindProgram(s / "dir");
    CHECK(dir.error == EACCES);
    CHECK(dir.reason == "is a directory");
    ProgramLookup x = FindProgram(s / "x");
    CHECK(x.error == EACCES);
    CHECK(x.reason == "is not executable");
    CHECK(FindProgram("").error == ENOENT);
  }

  TEST_CASE("FindProgram on PATH: the first runnable one; EACCES only when one was refused") {
    Scratch s;
    setenv("PATH", ("/nonexistent:" + s.dir()).c_str(), 1);
    CHECK(FindProgram("run").path == s / "run");
    ProgramLookup missing = FindProgram("missing");
    CHECK(missing.error == ENOENT);
    CHECK(missing.reason == "not found on PATH");
    ProgramLookup x = FindProgram("x");
    CHECK(x.error == EACCES);
    CHECK(x.reason == s / "x" + " is not executable");
    CHECK(FindProgram("dir").reason == s / "dir" + " is a directory");
    setenv("PATH", (s.dir() + "/dir:/bin").c_str(), 1);  // a directory named x would be skipped
    CHECK(FindProgram("sh").path == "/bin/sh");
  }

  TEST_CASE("ChildSpawn0: a failed lookup is the error a shell would give") {
    Scratch s;
    std::string message;
    int code = 0;
    for (const std::string& name : {s / "missing", s / "dir"}) {
      try {
        ChildSpawn0({.argv = {name}});
      } catch (const std::system_error& e) {
        message = e.what();
        code = e.code().value();
      }
      if (name == s / "missing") {
        CHECK(code == ENOENT);
        CHECK(message == "cannot run '" + name + "': No such file or directory");
      } else {
        CHECK(code == EACCES);
        CHECK(message == "cannot run '" + name + "' (is a directory): Permission denied");
      }
    }
  }

  TEST_CASE("ChildSpawn1Pipe from the child: stdout, stderr beside it, the environment added") {
    PipedChild c = ChildSpawn1Pipe(
        {.argv = {"sh", "-c", "echo \"$PM_ADDED\" $LC_ALL; echo err >&2; read x && echo in"},
         .env = {"PM_ADDED=yes", "LC_ALL=C"}},
        PipeTo::kStdoutAndStderr);
    CHECK(ReadToEof(c.fd.Get()) == "yes C\nerr\n");  // stdin is /dev/null: no "in"
    CHECK(ExitCode(c.child) == 1);
    PipedChild quiet = ChildSpawn1Pipe({.argv = {"sh", "-c", "echo out; echo err >&2"}},
                                       PipeTo::kStdout);
    CHECK(ReadToEof(quiet.fd.Get()) == "out\n");
    CHECK(ExitCode(quiet.child) == 0);
  }

  TEST_CASE("ChildSpawn1Pipe to the child: its stdin, in a working directory") {
    PipedChild c = ChildSpawn1Pipe(
        {.argv = {"sh", "-c", "read line; [ \"$(pwd)\" = / ] && exit ${#line}"}, .cwd = "/"},
        PipeTo::kStdin);
    WriteAll(c.fd.Get(), "seven!!\n");
    c.fd.Reset();
    CHECK(ExitCode(c.child) == 7);
  }
}

}  // namespace
}  // namespace pm

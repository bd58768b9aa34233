// Spawn: the fd map holds whatever numbers the parent's fds have (the
// seed's trap: pipes on 3-6 in a process with only stdio open), nothing
// else leaks into the child, exec failures come back as errors, and the
// pidfd reports the exit.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sstream>
#include <set>
#include <string>
#include <vector>

#include "common/clock.hh"
#include "common/deadline.hh"
#include "common/io.hh"
#include "common/spawn.hh"
#include "test/common/child_waits.hh"

namespace pm {
namespace {

// Frees fds [first, last] for the test (what the test runner had there is
// parked above 100 and put back afterwards), so pipe2 returns those numbers.
class FreeFds {
 public:
  FreeFds(int first, int last) {
    for (int fd = first; fd <= last; ++fd) {
      if (fcntl(fd, F_GETFD) < 0) continue;
      parked_.push_back({fd, fcntl(fd, F_DUPFD_CLOEXEC, 100)});
      close(fd);
    }
  }
  ~FreeFds() {
    for (auto [fd, parked] : parked_) {
      dup2(parked, fd);
      close(parked);
    }
  }

 private:
  std::vector<std::pair<int, int>> parked_;
};

std::vector<const char*> Argv(std::initializer_list<const char*> args) {
  std::vector<const char*> argv(args);
  argv.push_back(nullptr);
  return argv;
}

std::vector<std::string> Split(const std::string& text) {
  std::vector<std::string> words;
  std::istringstream in(text);
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

SpawnSpec Spec(const char* path, const std::vector<const char*>& argv,
               const std::vector<SpawnFd>& fds) {
  SpawnSpec spec{};
  spec.path = path;
  spec.argv = argv.data();
  spec.fds = fds.data();
  spec.fd_count = fds.size();
  return spec;
}

TEST_SUITE("spawn") {
  TEST_CASE("pipes on 3-6: each lands where asked, even on its own number") {
    FreeFds free_fds(3, 12);
    Pipe out = MakePipe();  // 3, 4
    Pipe in = MakePipe();   // 5, 6
    REQUIRE(out.read_end.Get() == 3);
    REQUIRE(out.write_end.Get() == 4);
    REQUIRE(in.read_end.Get() == 5);
    auto argv = Argv({"sh", "-c", "exec cat <&3 >&4"});
    std::vector<SpawnFd> fds = {{3, in.read_end.Get()}, {4, out.write_end.Get()}};
    SpawnedChild child = Spawn(Spec("/bin/sh", argv, fds));
    in.read_end.Reset();
    out.write_end.Reset();
    WriteAll(in.write_end.Get(), "through the child\n");
    in.write_end.Reset();
    // EOF comes only if the child holds no stray write end of either pipe.
    CHECK(ReadToEof(out.read_end.Get()) == "through the child\n");
    CHECK(WaitExit(child) == 0);
  }

  TEST_CASE("a swap, and targets on the next free numbers") {
    FreeFds free_fds(3, 12);
    Pipe loop = MakePipe();    // 3, 4
    Pipe result = MakePipe();  // 5, 6; 7 and 8 are the next an fd Spawn made would get
    REQUIRE(loop.read_end.Get() == 3);
    REQUIRE(result.write_end.Get() == 6);
    std::vector<SpawnFd> fds = {{1, result.write_end.Get()}, {3, loop.write_end.Get()},
                                {4, loop.read_end.Get()},    {7, result.write_end.Get()},
                                {8, loop.read_end.Get()}};
    SUBCASE("exec succeeds: the swapped ends work") {
      auto argv = Argv({"sh", "-c", "echo swapped >&3 && exec head -n 1 <&4"});
      SpawnedChild child = Spawn(Spec("/bin/sh", argv, fds));
      loop = {};
      result.write_end.Reset();
      CHECK(ReadToEof(result.read_end.Get()) == "swapped\n");
      CHECK(WaitExit(child) == 0);
    }
    SUBCASE("exec fails: still reported, not lost under a dup2") {
      auto argv = Argv({"missing"});
      SpawnResult r;
      SpawnSpec spec = Spec("/nonexistent/missing", argv, fds);
      CHECK(SpawnProcess(&spec, &r) == ENOENT);
      CHECK(std::string(r.failed_step) == "execve");
    }
  }

  TEST_CASE("many fds open: the child gets exactly stdio and the map") {
    std::vector<UniqueFd> clutter;
    for (int i = 0; i < 300; ++i) {
      int fd = open("/dev/null", i % 2 ? O_RDONLY | O_CLOEXEC : O_RDONLY);
      REQUIRE(fd >= 0);
      clutter.push_back(UniqueFd::Adopt(fd));
    }
    Pipe out = MakePipe();
    // ls lists its own table (its start-up is over by then) plus the fd of
    // the directory it reads: the lowest free number.
    auto argv = Argv({"ls", "/proc/self/fd"});
    std::vector<SpawnFd> fds = {{1, out.write_end.Get()}, {5, clutter[11].Get()},
                                {200, clutter[299].Get()}};
    SpawnSpec spec = Spec("/bin/ls", argv, fds);
    std::set<int> expected = {0, 1, 2, 3, 5, 200};  // 3: ls's directory
    SUBCASE("others closed") {}
    SUBCASE("keep_other_fds: the inheritable ones stay") { spec.keep_other_fds = true; }
    SpawnedChild child = Spawn(spec);
    out.write_end.Reset();
    std::set<int> got;
    for (const std::string& word : Split(ReadToEof(out.read_end.Get())))
      got.insert(std::stoi(word));
    CHECK(WaitExit(child) == 0);
    if (spec.keep_other_fds) {
      CHECK(got.count(clutter[0].Get()) == 1);    // inheritable
      CHECK(got.count(clutter[296].Get()) == 1);  // inheritable
      CHECK(got.count(clutter[297].Get()) == 0);  // CLOEXEC
      CHECK(got.count(out.read_end.Get()) == 0);  // CLOEXEC
    } else {
      CHECK(got == expected);
    }
  }

  TEST_CASE("exec and setup failures are errors with the step, the child reaped") {
    auto argv = Argv({"x"});
    SpawnSpec spec = Spec("/nonexistent/program", argv, {});
    SpawnResult r;
    CHECK(SpawnProcess(&spec, &r) == ENOENT);
    CHECK(std::string(r.failed_step) == "execve");
    CHECK(r.pid == -1);
    CHECK(waitpid(-1, nullptr, WNOHANG) == -1);  // nothing left to reap
    CHECK(errno == ECHILD);

    std::string message;
    try {
      Spawn(spec);
    } catch (const std::system_error& e) {
      message = e.what();
    }
    CHECK(message.find("cannot start /nonexistent/program: execve") == 0);

    spec.path = "/bin/true";
    spec.cwd = "/nonexistent";
    CHECK(SpawnProcess(&spec, &r) == ENOENT);
    CHECK(std::string(r.failed_step) == "chdir");

    spec.cwd = nullptr;
    std::vector<SpawnFd> bad = {{3, 987}};  // not open
    spec.fds = bad.data();
    spec.fd_count = 1;
    CHECK(SpawnProcess(&spec, &r) == EBADF);
    CHECK(waitpid(-1, nullptr, WNOHANG) == -1);
  }

  TEST_CASE("the pidfd reports the exit; the status is the child's") {
    Pipe in = MakePipe();
    auto argv = Argv({"sh", "-c", "read line; exit 7"});
    std::vector<SpawnFd> fds = {{0, in.read_end.Get()}};
    SpawnedChild child = Spawn(Spec("/bin/sh", argv, fds));
    in.read_end.Reset();
    // Blocked on our pipe: it cannot have exited yet.
    CHECK_FALSE(WaitForFd(child.pidfd.Get(), POLLIN, NowMonoNs() + 20'000'000));
    in.write_end.Reset();
    int status = WaitExit(child);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 7);
  }

  TEST_CASE("ignored and blocked signals are not passed on") {
    struct sigaction ignore = {}, old_int = {};
    ignore.sa_handler = SIG_IGN;
    sigaction(SIGINT, &ignore, &old_int);
    sigset_t term, old_mask;
    sigemptyset(&term);
    sigaddset(&term, SIGTERM);
    sigprocmask(SIG_BLOCK, &term, &old_mask);
    auto argv_int = Argv({"sh", "-c", "kill -INT $$; exit 3"});
    auto argv_term = Argv({"sh", "-c", "kill -TERM $$; exit 3"});
    SpawnedChild by_int = Spawn(Spec("/bin/sh", argv_int, {}));
    SpawnedChild by_term = Spawn(Spec("/bin/sh", argv_term, {}));
    sigaction(SIGINT, &old_int, nullptr);
    sigprocmask(SIG_SETMASK, &old_mask, nullptr);
    int status = WaitExit(by_int);
    CHECK(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == SIGINT);
    status = WaitExit(by_term);
    CHECK(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == SIGTERM);
  }

  // fork() write-protects every page of the caller for copy-on-write: its
  // next pass over a large heap then faults once per page. Counted, not
  // timed.
  TEST_CASE("the caller's heap is not write-protected: no faults on the pass after a spawn") {
    constexpr size_t kBytes = 64u << 20, kPage = 4096;
    void* mem = mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    REQUIRE(mem != MAP_FAILED);
    madvise(mem, kBytes, MADV_NOHUGEPAGE);  // one fault per 4 KiB page, not per 2 MiB
    volatile char* heap = static_cast<char*>(mem);
    auto pass = [&] {
      for (size_t i = 0; i < kBytes; i += kPage) heap[i] = static_cast<char>(heap[i] + 1);
    };
    auto faults = [] {
      struct rusage u;
      getrusage(RUSAGE_SELF, &u);
      return u.ru_minflt;
    };
    pass();  // every page present and writable
    auto argv = Argv({"true"});
    SpawnedChild child = Spawn(Spec("/bin/true", argv, {}));
    CHECK(WaitExit(child) == 0);
    long before = faults();
    pass();
    long during = faults() - before;
    munmap(mem, kBytes);
    CAPTURE(during);
    CHECK(during < static_cast<long>(kBytes / kPage / 16));  // fork(): one per page, 16384
  }

  TEST_CASE("environment, working directory, new session") {
    Pipe out = MakePipe();
    auto argv = Argv({"sh", "-c", "echo \"$ONLY\" $(pwd) $(cut -d' ' -f6 /proc/$$/stat)"});
    auto envp = Argv({"ONLY=this", "PATH=/usr/bin:/bin"});
    std::vector<SpawnFd> fds = {{1, out.write_end.Get()}};
    SpawnSpec spec = Spec("/bin/sh", argv, fds);
    spec.envp = envp.data();
    spec.cwd = "/";
    spec.new_session = true;
    SpawnedChild child = Spawn(spec);
    out.write_end.Reset();
    std::string text = ReadToEof(out.read_end.Get());
    CHECK(text == "this / " + std::to_string(child.pid) + "\n");
    CHECK(WaitExit(child) == 0);
  }
}

}  // namespace
}  // namespace pm

// record's write lock on its output file (fcntl, F_GETLK tells who holds
// it). A second recorder on the same path is refused naming the first. Any
// other process that can open the file can lock it too (another user's,
// with a read lock on a file it may read): it is named for what it is,
// its pid, uid and program, never "another perfmonger record"; the file
// is left as it was.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <climits>
#include <string>

#include "common/io.hh"
#include "test/process/fake_proc.hh"
#include "test/process/other_user.hh"
#include "test/process/recording.hh"

namespace pm::test {
namespace {

const char kRecord[] = "perfmonger record: error: ";

// A process of `user`'s (forked, ids switched) holding a read lock on
// `path` until destroyed.
class ReadLockHolder {
 public:
  ReadLockHolder(const OtherUser& user, const std::string& path) {
    Pipe ready = MakePipe();
    Pipe hold = MakePipe();
    pid_ = fork();
    REQUIRE(pid_ >= 0);
    if (pid_ == 0) {
      // Only the test keeps the write end: its exit ends the holder's read().
      close(hold.write_end.Get());
      close(ready.read_end.Get());
      Hold(user, path, ready.write_end.Get(), hold.read_end.Get());
    }
    hold_ = std::move(hold.write_end);
    ready.write_end.Reset();
    PollUntil(ready.read_end.Get(), POLLIN, DefaultDeadline(), "the read lock");
    char got = 0;
    REQUIRE(read(ready.read_end.Get(), &got, 1) == 1);
    REQUIRE(got == 'L');
  }
  ~ReadLockHolder() {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  pid_t pid() const { return pid_; }

 private:
  // In the child: system calls only, then _exit.
  [[noreturn]] static void Hold(const OtherUser& user, const std::string& path, int ready,
                                int hold) {
    char result = 'E';
    if (syscall(SYS_setgroups, 0, nullptr) == 0 &&
        syscall(SYS_setresgid, user.gid(), user.gid(), user.gid()) == 0 &&
        syscall(SYS_setresuid, user.uid(), user.uid(), user.uid()) == 0) {
      int fd = open(path.c_str(), O_RDONLY);
      struct flock lock = {};
      lock.l_type = F_RDLCK;
      lock.l_whence = SEEK_SET;
      if (fd >= 0 && fcntl(fd, F_SETLK, &lock) == 0) result = 'L';
    }
    if (write(ready, &result, 1) != 1) _exit(1);
    char byte;
    while (read(hold, &byte, 1) != 0) {
    }
    _exit(0);
  }

  pid_t pid_ = -1;
  UniqueFd hold_;
};

std::string OurExecutable() {
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf);
  REQUIRE(n > 0);
  return std::string(buf, static_cast<size_t>(n));
}

}  // namespace

TEST_SUITE("output locks") {
  TEST_CASE("a second record on a recording's path: refused, naming the first recorder") {
    TempDir dir;
    std::string path = dir / "out.pgr";
    Session first({"record", "-l", path, "-i", "0.1", "--no-gzip"});
    first.ReadReadyLine();
    ExitResult second = Run({"record", "-l", path, "-i", "0.1", "-t", "0.2", "--no-gzip"});
    CHECK(second.code == 1);
    CHECK(second.err == kRecord + path + " is being written by another perfmonger record (pid " +
                            std::to_string(first.child().pid()) + "); pass another -l PATH\n");
    first.CloseStop();
    ExitResult r = first.Wait();
    CHECK(r.code == 0);
    CHECK(ReadFileBytes(path).starts_with("{\"format\":\"perfmonger-pgr\""));
  }

  TEST_CASE("another user's read lock on the recording's path: named for what it is") {
    OtherUser user;
    if (!user.available()) {
      MESSAGE("skipped: " << user.why_not());
      return;
    }
    TempDir dir;
    REQUIRE(chmod(dir.path().c_str(), 0755) == 0);
    std::string path = dir / "out.pgr";
    WriteFile(path, "an earlier recording\n");  // root's, 0644: the other user may read it
    REQUIRE(chmod(path.c_str(), 0644) == 0);
    ReadLockHolder holder(user, path);
    ExitResult r = Run({"record", "-l", path, "-i", "0.1", "-t", "0.2", "--no-gzip"});
    CHECK(r.code == 1);
    CHECK(r.err == kRecord + path + " is locked by pid " + std::to_string(holder.pid()) +
                       " (uid " + std::to_string(user.uid()) + ", " + OurExecutable() +
                       "), which holds a read lock on it and is not a perfmonger record; "
                       "record needs the file to itself: stop that process or pass "
                       "another -l PATH\n");
    CHECK(ReadFileBytes(path) == "an earlier recording\n");
  }
}

}  // namespace pm::test

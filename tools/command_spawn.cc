#include "tools/command_spawn.hh"

#include <signal.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

#include "common/error.hh"

extern char** environ;

namespace pm {
namespace {

// posix_spawn reports an exec failure as its result (glibc runs the child
// with CLONE_VFORK), so "command not found" needs no pipe of our own.
class SpawnAttributes {
 public:
  SpawnAttributes() {
    posix_spawnattr_init(&attr_);
    sigset_t none, defaults;
    sigemptyset(&none);
    sigemptyset(&defaults);
    for (int signo : {SIGINT, SIGTERM, SIGPIPE, SIGCHLD}) sigaddset(&defaults, signo);
    posix_spawnattr_setsigmask(&attr_, &none);
    posix_spawnattr_setsigdefault(&attr_, &defaults);
    posix_spawnattr_setflags(&attr_, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  }
  ~SpawnAttributes() { posix_spawnattr_destroy(&attr_); }
  SpawnAttributes(const SpawnAttributes&) = delete;
  SpawnAttributes& operator=(const SpawnAttributes&) = delete;
  const posix_spawnattr_t* get() const { return &attr_; }

 private:
  posix_spawnattr_t attr_;
};

}  // namespace

SpawnedCommand SpawnCommand(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  SpawnAttributes attr;
  SpawnedCommand command;
  int rc = posix_spawnp(&command.pid, args[0], nullptr, attr.get(), args.data(), environ);
  if (rc != 0) throw SystemError("cannot run '" + argv[0] + "'", rc);
  // Our own unreaped child: its pid cannot be reused before ReapCommand.
  int pidfd = static_cast<int>(syscall(SYS_pidfd_open, command.pid, 0));
  if (pidfd < 0) {
    int err = errno;
    kill(command.pid, SIGKILL);
    ReapCommand(command.pid);
    throw SystemError("pidfd_open", err);
  }
  command.pidfd = UniqueFd::Adopt(pidfd);
  return command;
}

int ReapCommand(pid_t pid, int* signo) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (signo) *signo = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WEXITSTATUS(status);
}

}  // namespace pm

#include "test/process/terminal.hh"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <cerrno>
#include <poll.h>
#include <system_error>

namespace pm::test {
namespace {

std::system_error Errno(const std::string& what) {
  return std::system_error(errno, std::generic_category(), what);
}

std::vector<char*> Pointers(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (std::string& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

// Between fork and exec: async-signal-safe calls only.
[[noreturn]] void RunOnTerminal(const char* slave, char** argv, char** envp) {
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  if (setsid() < 0) _exit(126);
  int fd = open(slave, O_RDWR);  // a session leader's first terminal: its controlling one
  if (fd < 0 || ioctl(fd, TIOCSCTTY, 0) < 0) _exit(126);
  for (int std_fd = 0; std_fd < 3; ++std_fd)
    if (dup2(fd, std_fd) < 0) _exit(126);
  if (fd > 2) close(fd);
  execve(argv[0], argv, envp);
  _exit(127);
}

}  // namespace

Terminal::Terminal(std::vector<std::string> argv, std::vector<std::string> env,
                   unsigned short columns, unsigned short rows) {
  master_ = UniqueFd::Adopt(posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC));
  if (!master_ || grantpt(master_.Get()) < 0 || unlockpt(master_.Get()) < 0)
    throw Errno("posix_openpt");
  char slave[128];
  if (ptsname_r(master_.Get(), slave, sizeof slave) != 0) throw Errno("ptsname_r");
  struct winsize size = {rows, columns, 0, 0};
  if (ioctl(master_.Get(), TIOCSWINSZ, &size) < 0) throw Errno("TIOCSWINSZ");
  std::vector<char*> args = Pointers(argv);
  std::vector<char*> envp = Pointers(env);
  pid_ = fork();
  if (pid_ < 0) throw Errno("fork");
  if (pid_ == 0) RunOnTerminal(slave, args.data(), envp.data());
}

Terminal::~Terminal() {
  if (pid_ < 0) return;  // reaped by WaitExit
  ::kill(-pid_, SIGKILL);  // the shell's whole session: what it started too
  ::kill(pid_, SIGKILL);
  int status;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
}

void Terminal::Resize(unsigned short columns, unsigned short rows) {
  struct winsize size = {rows, columns, 0, 0};
  if (ioctl(master_.Get(), TIOCSWINSZ, &size) < 0) throw Errno("TIOCSWINSZ");
}

int Terminal::WaitExit(Deadline deadline) {
  try {
    for (;;) Read(deadline);  // until the terminal's last writer has gone
  } catch (const DeadlineExpired&) {
    // EIO: it exited (or the deadline passed: waitpid below tells which)
  }
  WaitForExit(pid_, deadline);
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
  return status;
}

void Terminal::Type(std::string_view keys) {
  while (!keys.empty()) {
    ssize_t n = ::write(master_.Get(), keys.data(), keys.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw Errno("write to the terminal");
    keys.remove_prefix(static_cast<size_t>(n));
  }
}

// Keeps the text a user reads: printable characters, tabs and newlines, without
// the sequences that move the cursor, colour and title the window.
void Terminal::Show(char c) {
  switch (escape_) {
    case Escape::kStart:
      escape_ = c == '[' ? Escape::kCsi : c == ']' ? Escape::kOsc
              : (c == '(' || c == ')') ? Escape::kCharset : Escape::kNone;
      return;
    case Escape::kCsi:
      if (c >= 0x40 && c <= 0x7e) escape_ = Escape::kNone;
      return;
    case Escape::kOsc:
      if (c == '\a') escape_ = Escape::kNone;
      if (c == '\x1b') escape_ = Escape::kOscEnd;
      return;
    case Escape::kOscEnd:
    case Escape::kCharset: escape_ = Escape::kNone; return;
    case Escape::kNone: break;
  }
  if (c == '\x1b') escape_ = Escape::kStart;
  else if (c == '\n' || c == '\t' || static_cast<unsigned char>(c) >= 0x20) shown_.push_back(c);
}

void Terminal::Read(Deadline deadline) {
  PollUntil(master_.Get(), POLLIN, deadline, "the shell's output");
  char chunk[4096];
  ssize_t n = ::read(master_.Get(), chunk, sizeof chunk);
  if (n < 0 && errno == EINTR) return;
  // EIO: the shell has gone and closed the terminal, and its last output
  // has been read. Not POLLHUP: poll reports the hangup while that output
  // may still be on its way to the master (a busy machine delays it).
  if (n <= 0) throw DeadlineExpired("the shell exited; it showed:\n" + shown_);
  for (ssize_t i = 0; i < n; ++i) Show(chunk[i]);
}

std::string Terminal::WaitFor(std::string_view text, Deadline deadline) {
  size_t at;
  while ((at = shown_.find(text, mark_)) == std::string::npos) {
    try {
      Read(deadline);
    } catch (const DeadlineExpired& e) {
      throw DeadlineExpired(std::string(e.what()) + " (waiting for '" + std::string(text) +
                            "'); it showed:\n" + shown_);
    }
  }
  std::string out = shown_.substr(mark_, at + text.size() - mark_);
  mark_ = at + text.size();
  return out;
}

std::string Terminal::Settle() {
  std::string marker = std::to_string(++settles_);
  // C-e C-u empties the line in bash, zsh and fish alike; SET""TLED is
  // echoed as typed, SETTLED only by the command.
  Type("\x05\x15" "echo SET\"\"TLED" + marker + "\r");
  return WaitFor("SETTLED" + marker);
}

}  // namespace pm::test

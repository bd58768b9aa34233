// A shell on a pseudo-terminal, typed at as a user types: its line editor,
// its completion system and its start-up files all run as they do for a
// person at a terminal. Every wait is for expected output by a deadline.
#pragma once

#include <sys/types.h>

#include <string>
#include <string_view>
#include <vector>

#include "common/unique_fd.hh"
#include "test/process/spawn.hh"

namespace pm::test {

class Terminal {
 public:
  // Runs `argv` (argv[0] a path) with exactly `env` on a new terminal of
  // `columns` x `rows` (200x50): its own session, the terminal its
  // controlling one.
  Terminal(std::vector<std::string> argv, std::vector<std::string> env, unsigned short columns = 200,
           unsigned short rows = 50);
  ~Terminal();  // kills the session and reaps the shell
  Terminal(const Terminal&) = delete;
  Terminal& operator=(const Terminal&) = delete;

  pid_t pid() const { return pid_; }
  void Type(std::string_view keys);
  // A new size, as a terminal emulator's window resized: the kernel sends
  // SIGWINCH to the foreground processes.
  void Resize(unsigned short columns, unsigned short rows);
  // The program's exit status (waitpid's), once it exits by `deadline`;
  // what it showed until then is read.
  int WaitExit(Deadline deadline = DefaultDeadline());

  // What the terminal showed since the last wait (escape sequences and
  // carriage returns removed) up to and including the first `text` in it.
  // Throws DeadlineExpired with everything shown so far.
  std::string WaitFor(std::string_view text, Deadline deadline = DefaultDeadline());

  // Empties the line, runs `echo` of a fresh marker and waits for it: the
  // shell has then handled every key typed before (completion included),
  // so what it showed for them is all in the text returned.
  std::string Settle();

  // Everything shown, for failure messages.
  const std::string& transcript() const { return shown_; }

 private:
  void Read(Deadline deadline);
  void Show(char c);

  // Where Show() is in an escape sequence.
  enum class Escape { kNone, kStart, kCsi, kOsc, kOscEnd, kCharset };

  UniqueFd master_;
  pid_t pid_ = -1;
  std::string shown_;  // escapes removed
  Escape escape_ = Escape::kNone;  // a sequence may be cut by a read
  size_t mark_ = 0;    // where the next wait starts looking
  int settles_ = 0;
};

}  // namespace pm::test

// Reading back what the recorder wrote, the way `play` does: the proto
// decompressor (codec by magic bytes) and line splitter, then Json.
// Also the session shape most tests drive: --ready-fd 3 and --stop-fd 4.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "proto/codec.hh"
#include "test/process/json.hh"
#include "test/process/spawn.hh"

namespace pm::test {

std::string ReadFileBytes(const std::string& path);

struct Recording {
  // Complete lines, without "\n", as v1 text: a v2 recording's difference
  // lines are rebuilt (absolute counters) as `perfmonger cat` prints them;
  // the header keeps its version.
  std::vector<std::string> lines;
  size_t difference_lines = 0;     // v2 lines as written
  bool truncated = false;          // input ended inside a gzip/zstd stream
  bool partial_tail = false;       // bytes after the last "\n"
  Compression compression = Compression::kPlain;
};

// Throws on garbage (pm::FormatError), never on a clean cut.
Recording ReadRecording(const std::string& path);
Recording DecodeRecording(std::string_view bytes);  // the file's contents

// Lines after the header that are samples (an object with "t", no "event").
size_t CountSampleLines(const Recording& recording);

// Waits (inotify IN_MODIFY on the file, never a sleep) until the recording
// at `path` holds at least `n` sample lines; returns how many it holds.
// Throws DeadlineExpired.
size_t WaitForSamples(const std::string& path, size_t n, Deadline deadline);

// Waits (inotify, as WaitForSamples) until `done` holds for the recording
// at `path`; returns that recording. Throws DeadlineExpired.
Recording WaitForRecording(const std::string& path,
                           const std::function<bool(const Recording&)>& done,
                           Deadline deadline);

// True if nothing modifies the file at `path` before `until` (an inotify
// IN_MODIFY watch polled up to `until`); false at the first modification.
bool QuietUntil(const std::string& path, Deadline until);

// A cleanly closed recording: a header, samples, and the `end` trailer
// last, with `reason` and a sample count equal to the sample lines.
// Returns the number of sample lines.
size_t CheckCleanRecording(const std::string& path, const std::string& reason);

// A reader's stderr without summary's warnings about the clock's state:
// whether they appear depends on this machine's clock, not on the test.
std::string WithoutClockWarnings(const std::string& err);

// Returns once the machine's CPU total (/proc/stat's first line) has moved
// on from what it was at the call, busy, so that a `sample` command sent
// next makes a pair whose CPU shares are defined (not null): a tick is
// 10 ms of one CPU. Throws DeadlineExpired.
void AwaitCpuTick(Deadline deadline = DefaultDeadline());

// The whole-disk or partition name (as /proc/diskstats has it) of the file
// system holding `path`; "" when it is on none (tmpfs).
std::string DiskOf(const std::string& path);

// The real gzip binary's `gzip -t PATH`; its exit status.
int GzipTest(const std::string& path);

// The recorder as the embedding contract drives it: `args` plus
// --ready-fd 3 --stop-fd 4 (pipes), stdin /dev/null.
class Session {
 public:
  explicit Session(std::vector<std::string> args, std::string cwd = "",
                   std::vector<std::string> env = {});
  std::string ReadReadyLine(Deadline deadline = DefaultDeadline());
  LineInput& ready() { return ready_; }
  void CloseStop() { stop_.Reset(); }
  Child& child() { return *child_; }
  ExitResult Wait() { return child_->Wait(); }

 private:
  LineInput ready_;
  UniqueFd stop_;
  std::unique_ptr<Child> child_;
};

// The recorder driven through commands: `args` plus --ready-fd 3
// --stop-fd 4 --cmd-fd 5 and, if `ack`, --ack-fd 6 (all pipes).
class CommandSession {
 public:
  explicit CommandSession(std::vector<std::string> args, bool ack = true);
  std::string ReadReadyLine(Deadline deadline = DefaultDeadline());
  void Send(std::string_view bytes);  // to the command pipe, as one write
  Json Reply(Deadline deadline = DefaultDeadline());  // the next ack line
  Json Command(std::string_view line) {  // `line` + "\n", then its reply
    Send(std::string(line) + "\n");
    return Reply();
  }
  void CloseCmd() { cmd_.Reset(); }
  void CloseAck() { ack_ = LineInput(); }
  void CloseStop() { stop_.Reset(); }
  LineInput& acks() { return ack_; }
  Child& child() { return *child_; }
  ExitResult Wait() { return child_->Wait(); }

 private:
  LineInput ready_;
  LineInput ack_;
  UniqueFd stop_;
  UniqueFd cmd_;
  std::unique_ptr<Child> child_;
};

// Start, wait for ready, stop at once, reap: a short complete recording.
ExitResult RecordBriefly(std::vector<std::string> args, std::string cwd = "");

// `perfmonger ARGS` with TMPDIR=tmpdir (where background sessions keep
// their pidfile and lock), within 30 s; `launcher` gets the pid it ran as.
ExitResult RunInTmpdir(const std::string& tmpdir, std::vector<std::string> args,
                       std::string cwd = "", pid_t* launcher = nullptr);

// One `record --background ARGS` launch with TMPDIR=tmpdir. Whatever the
// test does, the child it started is stopped at the end: `record --kill`,
// then SIGKILL through a pidfd opened on the pid the launcher printed.
class BackgroundLaunch {
 public:
  explicit BackgroundLaunch(const TempDir& tmpdir) : tmpdir_(tmpdir.path()) {}
  BackgroundLaunch(const BackgroundLaunch&) = delete;
  BackgroundLaunch& operator=(const BackgroundLaunch&) = delete;
  ~BackgroundLaunch();

  ExitResult Launch(std::vector<std::string> args, std::string cwd = "");
  bool has_line() const { return line_.has_value(); }
  const Json& line() const;  // the launcher's JSON line; throws if none
  pid_t pid() const { return pid_; }            // -1 if none printed
  pid_t launcher() const { return launcher_; }

 private:
  std::string tmpdir_;
  bool launched_ = false;
  std::optional<Json> line_;
  pid_t pid_ = -1;
  pid_t launcher_ = -1;
  UniqueFd pidfd_;
};

}  // namespace pm::test

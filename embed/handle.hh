// What a perfmonger_recording holds, and the steps the C API (embed.cc) is
// made of: the start (start.cc), the numbered commands and their replies
// (replies.cc), and the end of the recorder (stop.cc). Nothing here
// throws; every failure becomes a negative errno and one line in `error`.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>

#include "common/unique_fd.hh"
#include "embed/ready_line.hh"
#include "perfmonger/embed.h"

struct perfmonger_recording {
  bool started = false;  // the ready line was read
  bool exited = false;   // its exit was seen on the pidfd (and reaped if it could be)
  pid_t pid = 0;
  pm::UniqueFd pidfd;
  pm::UniqueFd stop_w;  // closing it stops the recording (the fallback)
  pm::UniqueFd cmd;     // our end of the command socket (MSG_NOSIGNAL: no SIGPIPE)
  pm::UniqueFd ack_r;
  pm::UniqueFd err_r;   // the recorder's stderr, for its messages (O_NONBLOCK)
  int timeout_ms = 0;

  // The recorder numbers every command line from 1; `sent` is the number
  // of the last one queued. A send or a reply that missed its deadline
  // leaves its bytes here, so the next call carries on from them.
  uint64_t sent = 0;
  std::string outbox;   // command bytes not yet written
  std::string replies;  // reply bytes read, not yet a whole line
  uint64_t stop_seq = 0;  // the stop command's number, once sent
  bool stop_acked = false;
  std::optional<pm::embed::Reply> stop_reply;  // its acknowledgement, for the last phase's cost

  int exit_status = -1;       // once exited, when it could be collected
  bool status_known = false;  // false: the caller ignores SIGCHLD or reaped it

  std::string error, output, start_time;
  std::string err_text;  // the recorder's stderr so far (its tail)

  int Fail(int err, const char* format, ...) __attribute__((format(printf, 3, 4)));
  int64_t Deadline() const;
};

namespace pm::embed {

// start.cc: options read, checked and turned into the recorder's run.
int Start(perfmonger_recording& rec, const perfmonger_options* given);
// `timeout_ms`, or the default (10 s) for 0.
int TimeoutOrDefault(int timeout_ms);

// replies.cc: sends `line` ("verb[ arg]\n") and waits for the reply with
// its number: 0 (*reply filled) or a negative errno, the message set.
int Command(perfmonger_recording& rec, const std::string& line, Reply* reply);
// kGarbled: a line that is no reply, or one numbered beyond `seq`.
enum class Wait { kGot, kTimedOut, kClosed, kGarbled };
// Queues `line` behind any unsent bytes and writes what the socket takes by
// `deadline` (its number in *seq); 0, -ETIMEDOUT or -EPIPE.
int Send(perfmonger_recording& rec, const std::string& line, int64_t deadline, uint64_t* seq);
// Writes the unsent bytes by `deadline`: 0, -ETIMEDOUT or -EPIPE.
int Flush(perfmonger_recording& rec, int64_t deadline);
// The reply numbered `seq`; older ones (to calls that timed out) are dropped.
Wait AwaitReply(perfmonger_recording& rec, uint64_t seq, int64_t deadline, Reply* reply);
// Appends what the recorder wrote on stderr (without waiting).
void DrainStderr(perfmonger_recording& rec);
// Its last non-empty line, or "".
std::string LastStderrLine(const perfmonger_recording& rec);

// stop.cc
int Stop(perfmonger_recording& rec, int* exit_status, int* complete);
// The recorder is gone or going (EOF, EPIPE): waits for its exit by
// `deadline` and fails with -ESRCH saying how it ended.
int Gone(perfmonger_recording& rec, int64_t deadline);
// After the pidfd became readable: collects the exit status if it can.
void Reap(perfmonger_recording& rec);
// True once the recorder has exited (reaped), waiting up to `deadline`.
bool WaitExit(perfmonger_recording& rec, int64_t deadline);
// "exited with status 1", "was killed by signal 9 (Killed)", ...
std::string HowItEnded(const perfmonger_recording& rec);
// Stop, then SIGTERM, then SIGKILL, each bounded; never blocks for ever.
void End(perfmonger_recording& rec);

}  // namespace pm::embed

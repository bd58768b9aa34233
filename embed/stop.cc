// The end of a recording. The stop goes over the command fd: the recorder
// takes its final sample, writes the end trailer, fsyncs, and only then
// replies, so the reply says the recording is complete whoever else holds
// the stop pipe (a worker the caller forked) and whatever the caller does
// with SIGCHLD (ignoring it, or reaping children itself, takes the exit
// status away, not the answer). The exit is awaited on the pidfd, within
// the handle's timeout; EOF on the stop pipe is the fallback when no
// command can be sent.
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

#include "common/deadline.hh"
#include "embed/handle.hh"

namespace pm::embed {
namespace {

constexpr const char* kNoStatus =
    "its exit status is unavailable (the caller ignores SIGCHLD or reaped it)";

bool Signal(perfmonger_recording& rec, int signo) {
  return syscall(SYS_pidfd_send_signal, rec.pidfd.Get(), signo, nullptr, 0) == 0;
}

// Sends `stop` (once; a later call finishes writing it) and waits for its
// reply: 0, -ETIMEDOUT, or -ESRCH when no reply can come (the recorder is
// going, or no longer reads commands).
int AskToStop(perfmonger_recording& rec, int64_t deadline) {
  if (rec.stop_acked) return 0;  // an earlier call got the reply, not the exit
  int sent = rec.stop_seq ? Flush(rec, deadline) : Send(rec, "stop\n", deadline, &rec.stop_seq);
  if (sent != 0) return sent == -ETIMEDOUT ? -ETIMEDOUT : -ESRCH;
  Reply reply;
  switch (AwaitReply(rec, rec.stop_seq, deadline, &reply)) {
    case Wait::kGot:
      rec.stop_acked = reply.ok;
      if (reply.ok) rec.stop_reply = reply;
      return reply.ok ? 0 : -ESRCH;
    case Wait::kTimedOut: return -ETIMEDOUT;
    default: return -ESRCH;
  }
}

int TimedOut(perfmonger_recording& rec, const char* what) {
  return rec.Fail(ETIMEDOUT, "perfmonger record (pid %d) %s within %d ms (stopped by a signal,"
                  " or stuck in I/O?): call perfmonger_stop() again, or perfmonger_free()",
                  static_cast<int>(rec.pid), what, rec.timeout_ms);
}

// What stop returns once the recorder has exited.
int Outcome(perfmonger_recording& rec, int* exit_status, int* complete) {
  bool done = rec.stop_acked || (rec.status_known && rec.exit_status == 0);
  if (exit_status) *exit_status = rec.status_known ? rec.exit_status : -1;
  if (complete) *complete = done;
  if (!rec.status_known) {
    if (!done)
      return rec.Fail(ECHILD, "perfmonger record exited without acknowledging the stop, and %s",
                      kNoStatus);
    rec.Fail(0, "the recording is complete (perfmonger acknowledged the stop); %s", kNoStatus);
    return 0;  // the message stays: it tells why *exit_status is -1
  }
  std::string message = LastStderrLine(rec);
  if (rec.exit_status == 0) {
    rec.error.clear();
    return 0;
  }
  if (rec.exit_status == 2)
    return rec.Fail(EIO, "%s", message.empty() ? "collection error" : message.c_str());
  return rec.Fail(ECHILD, "perfmonger record %s%s%s", HowItEnded(rec).c_str(),
                  message.empty() ? "" : ": ", message.c_str());
}

}  // namespace

void Reap(perfmonger_recording& rec) {
  if (rec.exited) return;
  rec.exited = true;
  siginfo_t info = {};
  int r;
  do {
    r = waitid(P_PIDFD, static_cast<id_t>(rec.pidfd.Get()), &info, WEXITED | WNOHANG);
  } while (r < 0 && errno == EINTR);
  if (r == 0 && info.si_pid != 0) {
    rec.status_known = true;
    rec.exit_status = info.si_code == CLD_EXITED ? info.si_status : 128 + info.si_status;
  }
  DrainStderr(rec);
  rec.pidfd.Reset();
  rec.stop_w.Reset();
  rec.cmd.Reset();
}

bool WaitExit(perfmonger_recording& rec, int64_t deadline) {
  if (rec.exited) return true;
  for (;;) {
    struct pollfd fds[2] = {{rec.pidfd.Get(), POLLIN, 0}, {rec.err_r.Get(), POLLIN, 0}};
    int n = PollUntil(fds, 2, deadline);
    if (n <= 0) return false;
    if (fds[1].revents) DrainStderr(rec);
    if (fds[0].revents) {
      Reap(rec);
      return true;
    }
  }
}

std::string HowItEnded(const perfmonger_recording& rec) {
  if (!rec.status_known) return "exited; " + std::string(kNoStatus);
  if (rec.exit_status > 128) {
    int signo = rec.exit_status - 128;
    return "was killed by signal " + std::to_string(signo) + " (" + strsignal(signo) + ")";
  }
  return "exited with status " + std::to_string(rec.exit_status);
}

int Gone(perfmonger_recording& rec, int64_t deadline) {
  if (!WaitExit(rec, deadline))
    return rec.Fail(ESRCH, "perfmonger record (pid %d) no longer answers commands",
                    static_cast<int>(rec.pid));
  std::string message = LastStderrLine(rec);
  return rec.Fail(ESRCH, "perfmonger record %s%s%s", HowItEnded(rec).c_str(),
                  message.empty() ? "" : ": ", message.c_str());
}

int Stop(perfmonger_recording& rec, int* exit_status, int* complete) {
  if (!rec.exited) {
    int64_t deadline = rec.Deadline();
    int asked = AskToStop(rec, deadline);
    if (asked == -ETIMEDOUT) return TimedOut(rec, "did not acknowledge the stop");
    rec.stop_w.Reset();  // EOF on --stop-fd: the stop when no command could be sent
    rec.cmd.Reset();
    if (!WaitExit(rec, deadline)) return TimedOut(rec, "did not exit");
  }
  return Outcome(rec, exit_status, complete);
}

void End(perfmonger_recording& rec) {
  if (!rec.started || rec.exited) return;
  if (!rec.stop_seq) Stop(rec, nullptr, nullptr);
  for (int signo : {SIGTERM, SIGKILL}) {
    if (rec.exited || !Signal(rec, signo)) break;
    WaitExit(rec, rec.Deadline());
  }
}

}  // namespace pm::embed

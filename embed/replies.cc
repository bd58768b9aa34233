// Commands and their replies, matched by number. The recorder numbers
// every command line from 1 and answers each exactly once, in order
// (DESIGN §5), so the reply to the n-th line we wrote is the one with
// "seq":n. A call that timed out leaves its reply to come: the next call
// reads and drops it, and returns on its own reply only. Both buffers live
// in the handle, so no byte read or unsent by one call is lost to the next.
#include <errno.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>

#include "common/deadline.hh"
#include "embed/handle.hh"

namespace pm::embed {
namespace {

constexpr size_t kReplyCap = 64 * 1024;  // far beyond one reply (1 KiB)
constexpr size_t kStderrCap = 16 * 1024;  // the tail kept: its last lines

// One read of `fd` (reported readable) appended to `buf`: false at EOF or
// on an error.
bool ReadInto(int fd, std::string& buf) {
  char chunk[4096];
  ssize_t n;
  do {
    n = read(fd, chunk, sizeof chunk);
  } while (n < 0 && errno == EINTR);
  if (n > 0) buf.append(chunk, static_cast<size_t>(n));
  return n > 0;
}

// Takes the first whole line out of `buf` into *line.
bool TakeLine(std::string& buf, std::string* line) {
  size_t nl = buf.find('\n');
  if (nl == std::string::npos) return false;
  *line = buf.substr(0, nl + 1);
  buf.erase(0, nl + 1);
  return true;
}

std::string Verb(const std::string& line) { return line.substr(0, line.find_first_of(" \n")); }

}  // namespace

void DrainStderr(perfmonger_recording& rec) {
  char chunk[4096];
  while (rec.err_r) {
    ssize_t n = read(rec.err_r.Get(), chunk, sizeof chunk);
    if (n > 0) rec.err_text.append(chunk, static_cast<size_t>(n));
    else if (n == 0) rec.err_r.Reset();  // the recorder is gone: nothing more to poll
    else if (errno != EINTR) break;      // EAGAIN: all read
  }
  if (rec.err_text.size() > kStderrCap) rec.err_text.erase(0, rec.err_text.size() - kStderrCap);
}

std::string LastStderrLine(const perfmonger_recording& rec) {
  const std::string& text = rec.err_text;
  size_t end = text.find_last_not_of('\n');
  if (end == std::string::npos) return "";
  size_t start = text.rfind('\n', end);
  start = start == std::string::npos ? 0 : start + 1;
  return text.substr(start, end + 1 - start);
}

int Flush(perfmonger_recording& rec, int64_t deadline) {
  while (!rec.outbox.empty()) {
    ssize_t n = send(rec.cmd.Get(), rec.outbox.data(), rec.outbox.size(),
                     MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n > 0) {
      rec.outbox.erase(0, static_cast<size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno != EAGAIN) return -EPIPE;
    struct pollfd p = {rec.cmd.Get(), POLLOUT, 0};
    if (PollUntil(&p, 1, deadline) == 0) return -ETIMEDOUT;
  }
  return 0;
}

int Send(perfmonger_recording& rec, const std::string& line, int64_t deadline, uint64_t* seq) {
  *seq = ++rec.sent;
  rec.outbox += line;
  return Flush(rec, deadline);
}

Wait AwaitReply(perfmonger_recording& rec, uint64_t seq, int64_t deadline, Reply* reply) {
  for (;;) {
    std::string line;
    while (TakeLine(rec.replies, &line)) {
      if (!ParseReply(line, reply) || reply->seq > seq) return Wait::kGarbled;
      if (reply->seq == seq) return Wait::kGot;
    }
    if (rec.replies.size() > kReplyCap) return Wait::kGarbled;
    // The pidfd too: a worker the caller forked may hold the ack pipe open.
    struct pollfd fds[3] = {{rec.ack_r.Get(), POLLIN, 0},
                            {rec.err_r.Get(), POLLIN, 0},
                            {rec.pidfd.Get(), POLLIN, 0}};
    int n = PollUntil(fds, 3, deadline);
    if (n == 0) return Wait::kTimedOut;
    if (n < 0) return Wait::kClosed;
    if (fds[1].revents) DrainStderr(rec);
    if (fds[0].revents) {
      if (!ReadInto(rec.ack_r.Get(), rec.replies)) return Wait::kClosed;
    } else if (fds[2].revents) {
      return Wait::kClosed;  // exited, and nothing more to read
    }
  }
}

int Command(perfmonger_recording& rec, const std::string& line, Reply* reply) {
  std::string verb = Verb(line);
  if (rec.exited) return Gone(rec, 0);
  if (rec.stop_seq) return rec.Fail(ESRCH, "the recording is being stopped: no '%s'", verb.c_str());
  int64_t deadline = rec.Deadline();
  uint64_t seq = 0;
  int sent = Send(rec, line, deadline, &seq);
  if (sent == -EPIPE) return Gone(rec, deadline);
  if (sent == -ETIMEDOUT)
    return rec.Fail(ETIMEDOUT, "could not send '%s' within %d ms (the recorder reads no commands)",
                    verb.c_str(), rec.timeout_ms);
  switch (AwaitReply(rec, seq, deadline, reply)) {
    case Wait::kTimedOut:
      return rec.Fail(ETIMEDOUT, "no reply to '%s' within %d ms (the next call skips it)",
                      verb.c_str(), rec.timeout_ms);
    case Wait::kClosed: return Gone(rec, deadline);
    case Wait::kGarbled:
      return rec.Fail(EPROTO, "the reply to '%s' is not the recorder's: out of step", verb.c_str());
    case Wait::kGot: break;
  }
  if (reply->ok) return 0;
  return rec.Fail(EPROTO, "perfmonger refused '%s': %s", verb.c_str(), reply->error.c_str());
}

}  // namespace pm::embed

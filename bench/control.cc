#include "bench/control.hh"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>

namespace pm::bench {
namespace {

constexpr int kReadyTimeoutMs = 5'000;
constexpr int64_t kReplyTimeoutNs = 5'000'000'000LL;
constexpr int kWarmupPings = 20;
constexpr size_t kEchoReplyBytes = 66;  // about a ping reply

// One line out on `out`, one line back on `in`, both blocking pipes.
class LineChannel {
 public:
  LineChannel(const char* peer, int out, int in) : peer_(peer), out_(out), in_(in) {}

  // Returns write() start -> reply line read, in microseconds.
  double RoundTrip(std::string_view line, std::string* reply) {
    int64_t t0 = NowMonoNs();
    while (!line.empty()) {
      ssize_t n = write(out_, line.data(), line.size());
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) Fail("write");
      line.remove_prefix(static_cast<size_t>(n));
    }
    size_t nl;
    while ((nl = buf_.find('\n')) == std::string::npos) {
      if (!ReadableBy(in_, t0 + kReplyTimeoutNs)) Fail("no reply within 5 s", 0);
      char chunk[4096];
      ssize_t n = read(in_, chunk, sizeof chunk);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) Fail("read");
      if (n == 0) Fail("reply pipe closed", 0);
      buf_.append(chunk, static_cast<size_t>(n));
    }
    int64_t t1 = NowMonoNs();
    reply->assign(buf_, 0, nl);
    buf_.erase(0, nl + 1);
    return static_cast<double>(t1 - t0) / 1e3;
  }

 private:
  [[noreturn]] void Fail(const char* what, int err = errno) {
    throw std::runtime_error(std::string(peer_) + ": " + what +
                             (err ? std::string(": ") + std::strerror(err) : ""));
  }

  const char* peer_;
  int out_, in_;
  std::string buf_;
};

}  // namespace

ControlRuns CommandLatency(const Env& env, int pairs, int pings_per_state) {
  ControlRuns runs;
  runs.warmup_pings = kWarmupPings;
  Child echo = SpawnEcho(env.floor_echo, kEchoReplyBytes);
  LiveRecording live;
  live.path = env.dir + "/cmd.pgr.gz";
  live.child = Spawn({env.perfmonger, "record", "-l", live.path,
                      "--ready-fd=" + std::to_string(kReadyFd),
                      "--stop-fd=" + std::to_string(kStopFd),
                      "--cmd-fd=" + std::to_string(kCmdFd),
                      "--ack-fd=" + std::to_string(kAckFd), "-i", "1"},
                     true);
  live.ready_ns = WaitReady(live.child, false, kReadyTimeoutMs);
  LineChannel rec("recorder", live.child.cmd.Get(), live.child.ack.Get());
  LineChannel floor("echo floor", echo.cmd.Get(), echo.ack.Get());

  uint64_t seq = 0;
  std::string reply;
  auto send = [&](const std::string& cmd, std::vector<double>* out,
                  std::initializer_list<std::string_view> expect) {
    double us = rec.RoundTrip(cmd + "\n", &reply);
    std::string head = "{\"seq\":" + std::to_string(++seq) + ",\"cmd\":\"" + cmd +
                       "\",\"ok\":true,";
    bool ok = reply.rfind(head, 0) == 0;
    for (std::string_view e : expect) ok = ok && reply.find(e) != std::string::npos;
    if (!ok) throw std::runtime_error("unexpected reply to '" + cmd + "': " + reply);
    if (out) out->push_back(us);
  };
  auto ping = [&](bool measured) {
    send("ping", measured ? &runs.ping_us : nullptr, {"\"samples\":"});
    double us = floor.RoundTrip("ping\n", &reply);
    if (measured) runs.echo_us.push_back(us);
  };

  for (int i = 0; i < kWarmupPings; ++i) ping(false);
  for (int i = 0; i < pairs; ++i) {
    for (int k = 0; k < pings_per_state; ++k) ping(true);
    send("pause", &runs.pause_us, {"\"state\":\"paused\"", "\"changed\":true"});
    for (int k = 0; k < pings_per_state; ++k) ping(true);
    send("resume", &runs.resume_us, {"\"state\":\"recording\"", "\"changed\":true"});
  }
  runs.run = FinishRecording(live);
  echo.cmd.Reset();  // EOF: the echo child exits
  Reap(echo, kReadyTimeoutMs);
  return runs;
}

}  // namespace pm::bench

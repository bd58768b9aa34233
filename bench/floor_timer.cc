// The timer floor for interval jitter: a bare periodic timerfd loop that
// only notes when it woke. Usage: floor-timer INTERVAL_NS OUT [short-slices]
//
// Arms an absolute periodic CLOCK_MONOTONIC timerfd (as the recorder's tick
// does), writes one byte to fd 3 once armed, then on every wake reads
// CLOCK_MONOTONIC (as the recorder stamps a sample's "mono") until fd 4
// reaches EOF; then writes the wake times to OUT, one decimal ns per line.
// `short-slices` asks the scheduler what the recorder asks
// (common/sched_hint.hh), to tell that hint's share from the recorder's.
#include <fcntl.h>
#include <poll.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>

#include "common/sched_hint.hh"

namespace {

int64_t MonoNs() {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return now.tv_sec * 1'000'000'000LL + now.tv_nsec;
}

int ArmTimer(int64_t interval) {
  int tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
  int64_t first = MonoNs() + interval;
  struct itimerspec spec = {{interval / 1'000'000'000, interval % 1'000'000'000},
                            {first / 1'000'000'000, first % 1'000'000'000}};
  if (tfd < 0 || timerfd_settime(tfd, TFD_TIMER_ABSTIME, &spec, nullptr) != 0) {
    std::perror("timerfd");
    std::exit(1);
  }
  return tfd;
}

// Wake times until the stop fd (4) is readable or at EOF.
std::vector<int64_t> Loop(int tfd) {
  std::vector<int64_t> wakes;
  wakes.reserve(1 << 16);
  struct pollfd fds[2] = {{tfd, POLLIN, 0}, {4, POLLIN, 0}};
  for (;;) {
    if (poll(fds, 2, -1) < 0) continue;  // EINTR
    if (fds[0].revents & POLLIN) {
      uint64_t expirations = 0;
      if (read(tfd, &expirations, sizeof expirations) == sizeof expirations)
        wakes.push_back(MonoNs());
    }
    if (fds[1].revents != 0) return wakes;
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || argc > 4 || (argc == 4 && std::strcmp(argv[3], "short-slices") != 0)) {
    std::fprintf(stderr, "usage: %s INTERVAL_NS OUT [short-slices]\n", argv[0]);
    return 2;
  }
  if (argc == 4) pm::RequestShortSlices();
  int tfd = ArmTimer(std::strtoll(argv[1], nullptr, 10));
  char byte = '\n';
  if (write(3, &byte, 1) == 1) close(3);
  std::vector<int64_t> wakes = Loop(tfd);
  FILE* out = std::fopen(argv[2], "we");
  if (out == nullptr) {
    std::perror(argv[2]);
    return 1;
  }
  for (int64_t t : wakes) std::fprintf(out, "%lld\n", static_cast<long long>(t));
  return std::fclose(out) == 0 ? 0 : 1;
}

// The sampling floor: the least a sampler of the default collectors does per
// tick. Usage: floor-sample INTERVAL_NS TICKS [FILE...]
//
// Opens /proc/stat, /proc/diskstats, /proc/net/dev and /proc/meminfo (and
// each FILE: the floor of more collectors) once,
// takes one sample at start (like the recorder's first sample), writes one
// byte to fd 3 if it is open, then wakes TICKS times on an absolute periodic
// CLOCK_MONOTONIC timerfd; each wake preads every file from offset 0 into a
// growing buffer (a short read ends the file) and scans every number in it.
// No formatting, no compression, no output file: the floor.
#include <fcntl.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

namespace {

constexpr const char* kFiles[] = {"/proc/stat", "/proc/diskstats", "/proc/net/dev",
                                  "/proc/meminfo"};

struct ProcFile {
  int fd = -1;
  std::vector<char> buf = std::vector<char>(4096);
};

// pread from 0 to the end; returns the length.
size_t ReadAll(ProcFile& f) {
  size_t len = 0;
  for (;;) {
    ssize_t n = pread(f.fd, f.buf.data() + len, f.buf.size() - len, static_cast<off_t>(len));
    if (n < 0) {
      std::perror("pread");
      std::exit(1);
    }
    len += static_cast<size_t>(n);
    if (len < f.buf.size()) return len;
    f.buf.resize(f.buf.size() * 2);
  }
}

// Every decimal number in the text, summed (so nothing is optimised away).
uint64_t ScanNumbers(const char* p, size_t len) {
  uint64_t sum = 0, value = 0;
  bool in_number = false;
  for (size_t i = 0; i < len; ++i) {
    unsigned d = static_cast<unsigned char>(p[i]) - '0';
    if (d < 10) {
      value = value * 10 + d;
      in_number = true;
    } else if (in_number) {
      sum += value;
      value = 0;
      in_number = false;
    }
  }
  return sum + value;
}

uint64_t Sample(std::vector<ProcFile>& files) {
  uint64_t sum = 0;
  for (ProcFile& f : files) sum += ScanNumbers(f.buf.data(), ReadAll(f));
  return sum;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s INTERVAL_NS TICKS [FILE...]\n", argv[0]);
    return 2;
  }
  int64_t interval = std::strtoll(argv[1], nullptr, 10);
  uint64_t ticks = std::strtoull(argv[2], nullptr, 10);
  std::vector<const char*> names(std::begin(kFiles), std::end(kFiles));
  names.insert(names.end(), argv + 3, argv + argc);
  std::vector<ProcFile> files(names.size());
  for (size_t i = 0; i < files.size(); ++i)
    if ((files[i].fd = open(names[i], O_RDONLY | O_CLOEXEC)) < 0) {
      std::perror(names[i]);
      return 1;
    }
  volatile uint64_t sink = Sample(files);
  char byte = '\n';
  if (write(3, &byte, 1) == 1) close(3);

  int tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  int64_t first = now.tv_sec * 1'000'000'000LL + now.tv_nsec + interval;
  struct itimerspec spec = {{interval / 1'000'000'000, interval % 1'000'000'000},
                            {first / 1'000'000'000, first % 1'000'000'000}};
  if (tfd < 0 || timerfd_settime(tfd, TFD_TIMER_ABSTIME, &spec, nullptr) != 0) {
    std::perror("timerfd");
    return 1;
  }
  for (uint64_t done = 0; done < ticks;) {
    uint64_t expirations = 0;
    if (read(tfd, &expirations, sizeof expirations) != sizeof expirations) continue;
    sink = sink + Sample(files);
    done += 1;  // one sample per wake, as the recorder (missed ticks dropped)
  }
  return 0;
}

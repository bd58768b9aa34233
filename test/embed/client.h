/* What the two C clients of perfmonger-embed share: the check macro, fd
 * counting, CPU work measured by CPU time (never by the clock), and waits
 * on pidfds and fds with deadlines of seconds. */
#ifndef PERFMONGER_TEST_EMBED_CLIENT_H
#define PERFMONGER_TEST_EMBED_CLIENT_H

#include <dirent.h>
#include <poll.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define EXPECT(cond)                                                      \
  do {                                                                    \
    if (!(cond)) {                                                        \
      fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond); \
      return 1;                                                           \
    }                                                                     \
  } while (0)

/* A generous bound: a healthy recorder answers in milliseconds. */
enum { kDeadlineMs = 10000 };

static inline int count_fds(void) {
  int n = 0;
  DIR *d = opendir("/proc/self/fd");
  if (!d) return -1;
  while (readdir(d)) n++;
  closedir(d);
  return n;
}

static inline double cpu_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Burns `seconds` of this process's CPU time. */
static inline void burn_cpu(double seconds) {
  volatile unsigned long sum = 0;
  double until = cpu_seconds() + seconds;
  while (cpu_seconds() < until)
    for (unsigned long i = 0; i < 100000; i++) sum += i ^ (sum >> 3);
}

/* 1 once `fd` is readable (or hung up) within kDeadlineMs, else 0. */
static inline int readable_in_time(int fd) {
  struct pollfd p = {fd, POLLIN, 0};
  int n;
  do n = poll(&p, 1, kDeadlineMs);
  while (n < 0);
  return n == 1;
}

static inline int pidfd_of(pid_t pid) { return (int)syscall(SYS_pidfd_open, pid, 0); }

#endif

/* CPU time of known shape, for the CPU-precision tests (test_cpu.cc):
 *   cpu_helper duty SECONDS   one thread busy 0.3 ms of CPU every 1 ms
 *                             (30 % of a core) for SECONDS, at SCHED_FIFO
 *                             when allowed, so that a busy machine does not
 *                             change its shape; prints "fifo" or "normal".
 *                             Each burst ends when the process's CPU time
 *                             reaches 0.3 ms per period so far, so its own
 *                             sleeps and wake-ups are inside the 30 %.
 *                             A period it could not keep (it woke late or
 *                             its burst took long: the host took the CPU
 *                             away, which a VM's guest cannot see) goes to
 *                             stderr as "late FROM_NS TO_NS" (monotonic)
 *   cpu_helper exiting MS     a second thread burns MS ms of CPU and exits,
 *                             then the main thread burns MS ms; prints the
 *                             process's CPU time in ns at the end
 * The busy time is measured on the thread's own CPU clock, not the wall. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int64_t Ns(clockid_t clock) {
  struct timespec t;
  clock_gettime(clock, &t);
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static void BurnUntil(clockid_t clock, int64_t until) {
  volatile unsigned long n = 0;
  while (Ns(clock) < until)
    for (int i = 0; i < 100; ++i) n = n + 1;
}

static void Burn(int64_t ns) { BurnUntil(CLOCK_THREAD_CPUTIME_ID, Ns(CLOCK_THREAD_CPUTIME_ID) + ns); }

static void SleepUntil(int64_t mono_ns) {
  struct timespec t = {mono_ns / 1000000000, mono_ns % 1000000000};
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL) != 0) {
  }
}

static int Duty(double seconds) {
  struct sched_param p = {.sched_priority = 1};
  int fifo = sched_setscheduler(0, SCHED_FIFO, &p) == 0;
  printf("%s\n", fifo ? "fifo" : "normal");
  fflush(stdout);
  const int64_t period = 1000000, busy = 300000;
  int64_t next = Ns(CLOCK_MONOTONIC), end = next + (int64_t)(seconds * 1e9);
  int64_t cpu = Ns(CLOCK_PROCESS_CPUTIME_ID);
  while (next < end) {
    int64_t woke = Ns(CLOCK_MONOTONIC);
    if (woke > next + period / 5) fprintf(stderr, "late %lld %lld\n", (long long)next, (long long)woke);
    cpu += busy;
    BurnUntil(CLOCK_PROCESS_CPUTIME_ID, cpu);
    int64_t burnt = Ns(CLOCK_MONOTONIC);
    if (burnt - woke > 2 * busy) fprintf(stderr, "late %lld %lld\n", (long long)woke, (long long)burnt);
    next += period;
    while (next <= burnt) next += period;  /* late: no catching up */
    SleepUntil(next);
  }
  return 0;
}

static void* BurnThenExit(void* ms) {
  Burn(*(int64_t*)ms * 1000000);
  return NULL;
}

static int Exiting(int64_t ms) {
  pthread_t t;
  if (pthread_create(&t, NULL, BurnThenExit, &ms) != 0) return 1;
  pthread_join(t, NULL);
  Burn(ms * 1000000);
  printf("%lld\n", (long long)Ns(CLOCK_PROCESS_CPUTIME_ID));
  return 0;
}

int main(int argc, char** argv) {
  if (argc == 3 && strcmp(argv[1], "duty") == 0) return Duty(atof(argv[2]));
  if (argc == 3 && strcmp(argv[1], "exiting") == 0) return Exiting(atoll(argv[2]));
  fprintf(stderr, "usage: cpu_helper duty SECONDS | exiting MS\n");
  return 2;
}

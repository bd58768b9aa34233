/* A C99 client of the installed perfmonger-embed library, as a database or
 * a benchmark harness holds it: a recorder that stops answering (SIGSTOP,
 * never a short deadline on a live one), a worker forked without exec, the
 * caller's own SIGCHLD setup, a large heap, bad names, its own process
 * recorded beside the machine, and options that grow. Each scenario exits
 * 0 when the library behaved as its header promises; some print what
 * run.sh checks in the recording afterwards.
 *
 * Usage: embed_hold SCENARIO PERFMONGER DIR
 *   late_reply  a reply that comes after its call timed out answers no
 *               later call
 *   worker      a forked worker holding every fd does not delay the stop
 *   stopped     a SIGSTOPped recorder: stop times out, then completes once
 *               continued; free ends one that never continues
 *   sigchld     SIGCHLD ignored, or a handler reaping every child: the
 *               stop still reports a complete recording
 *   heap        64 MiB touched: no copy-on-write fault on the pass after
 *               the start (counted, not timed)
 *   messages    "-" refused, a non-UTF-8 name kept, EACCES said apart from
 *               ENOENT, a start timeout keeps the recorder's stderr
 *   caller      every collector (record_caller and pids, disks, intr,
 *               cgroups, pressure): printed for run.sh to find in
 *               summary --phases
 *   options     the options' size: set by the macro and the function,
 *               required, a larger struct accepted when its tail is zero
 *   status      status and ping, started paused: printed for run.sh
 *   collectors  options.record and .skip by name: the recording's
 *               members; an unknown name, or "procs", refused naming why
 *   phasecost   100 phases between marks, the caller burning about 3 ms of
 *               CPU in each, measured by itself on its process CPU clock
 *               between the marks' calls and around them, and the cost
 *               each mark's reply (and the stop's) hands back: printed
 *               for run.sh to compare with summary --phases */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <perfmonger/embed.h>

#include "client.h"

static const char *g_perfmonger;
static const char *g_dir;

static perfmonger_recording *start(const char *name, int start_paused) {
  static char out[4096];
  snprintf(out, sizeof out, "%s/%s", g_dir, name);
  perfmonger_recording *rec = perfmonger_new();
  struct perfmonger_options opt = PERFMONGER_OPTIONS_INIT;
  opt.output = out;
  opt.interval = "100ms";
  opt.perfmonger = g_perfmonger;
  opt.start_paused = start_paused;
  if (perfmonger_start(rec, &opt) != 0) {
    fprintf(stderr, "start %s: %s\n", name, perfmonger_error(rec));
    perfmonger_free(rec);
    return NULL;
  }
  return rec;
}

static int stop_complete(perfmonger_recording *rec) {
  int status = -2, complete = -2;
  int rc = perfmonger_stop(rec, &status, &complete);
  if (rc != 0) fprintf(stderr, "stop: %d %s\n", rc, perfmonger_error(rec));
  EXPECT(rc == 0 && status == 0 && complete == 1);
  return 0;
}

/* The fd on which the recorder writes replies: a pipe it holds write-only
 * that is not its stderr (it reopens fd 6 non-blocking, so not fd 6). */
static int ack_fd_of(pid_t recorder) {
  char dir[64], path[384], link[64], info[256];
  snprintf(dir, sizeof dir, "/proc/%d/fd", (int)recorder);
  DIR *d = opendir(dir);
  struct dirent *e;
  int found = -1;
  while (d && found < 0 && (e = readdir(d))) {
    int fd = atoi(e->d_name);
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    ssize_t n = readlink(path, link, sizeof link - 1);
    if (fd <= 2 || n <= 0 || strncmp(link, "pipe:", 5) != 0) continue;
    snprintf(path, sizeof path, "/proc/%d/fdinfo/%d", (int)recorder, fd);
    FILE *f = fopen(path, "re");
    unsigned long flags = 0;
    while (f && fgets(info, sizeof info, f))
      if (sscanf(info, "flags: %lo", &flags) == 1) break;
    if (f) fclose(f);
    if ((flags & O_ACCMODE) == O_WRONLY) found = fd;
  }
  if (d) closedir(d);
  return found;
}

/* 1 once the recorder has written a reply nobody read yet: its ack pipe,
 * opened anew through /proc, is readable (reading nothing from it). */
static int reply_pending(pid_t recorder) {
  char path[64];
  int ack = ack_fd_of(recorder);
  snprintf(path, sizeof path, "/proc/%d/fd/%d", (int)recorder, ack);
  int fd = ack < 0 ? -1 : open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return 0;
  int ok = readable_in_time(fd);
  close(fd);
  return ok;
}

static int scenario_late_reply(void) {
  perfmonger_recording *rec = start("late.pgr", 0);
  EXPECT(rec != NULL);
  pid_t pid = perfmonger_pid(rec);
  EXPECT(perfmonger_set_timeout(rec, 300) == 0); /* it cannot answer: it is stopped */
  EXPECT(kill(pid, SIGSTOP) == 0);
  EXPECT(perfmonger_mark(rec, "A") == -ETIMEDOUT);
  EXPECT(kill(pid, SIGCONT) == 0);
  EXPECT(reply_pending(pid)); /* A's reply is there now, unread */
  EXPECT(kill(pid, SIGSTOP) == 0);
  EXPECT(perfmonger_mark(rec, "B") == -ETIMEDOUT); /* not A's reply */
  EXPECT(kill(pid, SIGCONT) == 0);
  EXPECT(perfmonger_set_timeout(rec, 0) == 0);
  EXPECT(perfmonger_mark(rec, "C") == 0);
  EXPECT(perfmonger_ping(rec) == 0);
  if (stop_complete(rec)) return 1;
  perfmonger_free(rec);
  printf("%s/late.pgr\n", g_dir);
  return 0;
}

static int scenario_worker(void) {
  perfmonger_recording *rec = start("worker.pgr", 0);
  EXPECT(rec != NULL);
  int release[2];
  EXPECT(pipe(release) == 0);
  pid_t worker = fork(); /* a pre-fork server's worker: every fd inherited */
  EXPECT(worker >= 0);
  if (worker == 0) {
    close(release[1]);
    struct pollfd p = {release[0], POLLIN, 0};
    poll(&p, 1, 20000); /* until released (or 20 s: never hang the suite) */
    _exit(0);
  }
  close(release[0]);
  EXPECT(perfmonger_mark(rec, "with-worker") == 0);
  if (stop_complete(rec)) return 1;
  EXPECT(waitpid(worker, NULL, WNOHANG) == 0); /* the stop did not wait for it */
  close(release[1]);
  int status = -1;
  EXPECT(waitpid(worker, &status, 0) == worker && WIFEXITED(status));
  perfmonger_free(rec);
  return 0;
}

static int scenario_stopped(void) {
  perfmonger_recording *rec = start("stopped.pgr", 0);
  EXPECT(rec != NULL);
  pid_t pid = perfmonger_pid(rec);
  EXPECT(kill(pid, SIGSTOP) == 0);
  EXPECT(perfmonger_set_timeout(rec, 300) == 0);
  int status = -2, complete = -2;
  EXPECT(perfmonger_stop(rec, &status, &complete) == -ETIMEDOUT);
  EXPECT(strstr(perfmonger_error(rec), "did not acknowledge the stop") != NULL);
  EXPECT(perfmonger_running(rec) == 1);
  EXPECT(kill(pid, SIGCONT) == 0);
  EXPECT(perfmonger_set_timeout(rec, 0) == 0);
  if (stop_complete(rec)) return 1; /* the same stop, acknowledged now */
  perfmonger_free(rec);

  rec = start("never.pgr", 0);
  EXPECT(rec != NULL);
  pid = perfmonger_pid(rec);
  int pidfd = pidfd_of(pid);
  EXPECT(pidfd >= 0);
  EXPECT(kill(pid, SIGSTOP) == 0);
  EXPECT(perfmonger_set_timeout(rec, 300) == 0);
  perfmonger_free(rec); /* stop, SIGTERM, SIGKILL: each bounded */
  EXPECT(readable_in_time(pidfd));
  close(pidfd);
  return 0;
}

static void reap_everything(int signo) {
  (void)signo;
  int saved = errno;
  while (waitpid(-1, NULL, WNOHANG) > 0) {
  }
  errno = saved;
}

static int bracket_with_sigchld(void (*handler)(int), const char *name) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = handler;
  sa.sa_flags = SA_RESTART;
  EXPECT(sigaction(SIGCHLD, &sa, NULL) == 0);
  perfmonger_recording *rec = start(name, 0);
  EXPECT(rec != NULL);
  EXPECT(perfmonger_mark(rec, "q") == 0);
  int status = -2, complete = -2;
  int rc = perfmonger_stop(rec, &status, &complete);
  if (rc != 0) fprintf(stderr, "stop: %d %s\n", rc, perfmonger_error(rec));
  EXPECT(rc == 0 && complete == 1);
  EXPECT(status == 0 || status == -1); /* -1: the caller's setup took it */
  if (status == -1) EXPECT(strstr(perfmonger_error(rec), "unavailable") != NULL);
  if (handler == SIG_IGN) EXPECT(status == -1);
  EXPECT(perfmonger_running(rec) == 0);
  perfmonger_free(rec);
  return 0;
}

static int scenario_sigchld(void) {
  if (bracket_with_sigchld(SIG_IGN, "ignored.pgr")) return 1;
  /* A setup error is still told from the recorder's own message. */
  perfmonger_recording *rec = perfmonger_new();
  struct perfmonger_options opt = PERFMONGER_OPTIONS_INIT;
  opt.output = "/nonexistent-dir/x.pgr";
  opt.perfmonger = g_perfmonger;
  EXPECT(perfmonger_start(rec, &opt) == -ECHILD);
  EXPECT(strstr(perfmonger_error(rec), "perfmonger record: error:") != NULL);
  perfmonger_free(rec);
  return bracket_with_sigchld(reap_everything, "reaped.pgr");
}

static long minor_faults(void) {
  struct rusage u;
  getrusage(RUSAGE_SELF, &u);
  return u.ru_minflt;
}

static int scenario_heap(void) {
  const size_t bytes = (size_t)64 << 20, page = 4096;
  char *heap = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  EXPECT(heap != MAP_FAILED);
  madvise(heap, bytes, MADV_NOHUGEPAGE); /* one fault per page, not per 2 MiB */
  for (size_t i = 0; i < bytes; i += page) heap[i] = 1;
  perfmonger_recording *rec = start("heap.pgr", 0);
  EXPECT(rec != NULL);
  long before = minor_faults();
  for (size_t i = 0; i < bytes; i += page) heap[i]++;
  long faults = minor_faults() - before;
  fprintf(stderr, "heap pass after start: %ld minor faults over %zu pages\n", faults,
          bytes / page);
  EXPECT(faults < (long)(bytes / page / 16)); /* a fork(): one per page */
  if (stop_complete(rec)) return 1;
  perfmonger_free(rec);
  munmap(heap, bytes);
  return 0;
}

static int start_fails(const char *output, const char *perfmonger, int timeout_ms, int err,
                       const char *needle) {
  perfmonger_recording *rec = perfmonger_new();
  struct perfmonger_options opt = PERFMONGER_OPTIONS_INIT;
  opt.output = output;
  opt.perfmonger = perfmonger;
  opt.timeout_ms = timeout_ms;
  int rc = perfmonger_start(rec, &opt);
  if (rc != err || !strstr(perfmonger_error(rec), needle))
    fprintf(stderr, "start: %d, not %d: '%s' (wanted '%s')\n", rc, err, perfmonger_error(rec),
            needle);
  EXPECT(rc == err);
  EXPECT(strstr(perfmonger_error(rec), needle) != NULL);
  perfmonger_free(rec);
  return 0;
}

static int write_file(const char *path, const char *text, mode_t mode) {
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
  EXPECT(fd >= 0);
  EXPECT(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
  EXPECT(fchmod(fd, mode) == 0 && close(fd) == 0);
  return 0;
}

static int scenario_messages(void) {
  char path[4096], bin[2048];
  EXPECT(start_fails("-", g_perfmonger, 0, -EINVAL, "\"-\"") == 0);
  snprintf(path, sizeof path, "%s/plain-file", g_dir);
  if (write_file(path, "#!/bin/sh\n", 0644)) return 1;
  EXPECT(start_fails("/tmp/never.pgr", path, 0, -EACCES, "is not executable") == 0);
  EXPECT(start_fails("/tmp/never.pgr", g_dir, 0, -EACCES, "is a directory") == 0);
  snprintf(bin, sizeof bin, "%s/bin", g_dir);
  EXPECT(mkdir(bin, 0755) == 0);
  snprintf(path, sizeof path, "%s/perfmonger", bin);
  if (write_file(path, "#!/bin/sh\n", 0644)) return 1;
  const char *old_path = getenv("PATH");
  setenv("PATH", bin, 1);
  EXPECT(start_fails("/tmp/never.pgr", NULL, 0, -EACCES, "perfmonger is not executable") == 0);
  setenv("PATH", old_path, 1);
  /* It writes its error and stops itself: it never answers. */
  snprintf(path, sizeof path, "%s/fake-recorder", g_dir);
  if (write_file(path, "#!/bin/sh\necho 'perfmonger record: error: the fake says why' >&2\n"
                       "kill -STOP $$\n", 0755))
    return 1;
  EXPECT(start_fails("/tmp/never.pgr", path, 3000, -ETIMEDOUT, "the fake says why") == 0);

  char out[4096];
  snprintf(out, sizeof out, "%s/q\xff\xfe.pgr", g_dir); /* not UTF-8 */
  perfmonger_recording *rec = perfmonger_new();
  struct perfmonger_options opt = PERFMONGER_OPTIONS_INIT;
  opt.output = out;
  opt.perfmonger = g_perfmonger;
  EXPECT(perfmonger_start(rec, &opt) == 0);
  EXPECT(strcmp(perfmonger_output(rec), out) == 0);
  if (stop_complete(rec)) return 1;
  perfmonger_free(rec);
  EXPECT(access(out, R_OK) == 0);
  return 0;
}

/* The first whole disk in /sys/block that is not a loop or RAM device. */
static int first_disk(char *name, size_t size) {
  DIR *d = opendir("/sys/block");
  struct dirent *e;
  int found = 0;
  while (d && !found && (e = readdir(d)))
    if (e->d_name[0] != '.' && strncmp(e->d_name, "loop", 4) && strncmp(e->d_name, "ram", 3))
      found = snprintf(name, size, "%s", e->d_name) > 0;
  if (d) closedir(d);
  return found;
}

static const char *cgroup2_root(void) {
  if (access("/sys/fs/cgroup/cgroup.controllers", R_OK) == 0) return "/sys/fs/cgroup";
  if (access("/sys/fs/cgroup/unified/cgroup.controllers", R_OK) == 0)
    return "/sys/fs/cgroup/unified";
  return NULL;
}

static int scenario_caller(void) {
  char out[4096], disk[256] = "", data[4096];
  snprintf(out, sizeof out, "%s/caller.pgr", g_dir);
  const char *disks[] = {disk, NULL};
  const char *cgroups[] = {cgroup2_root(), NULL};
  pid_t pids[] = {getppid(), 0};
  struct perfmonger_options opt = PERFMONGER_OPTIONS_INIT;
  opt.output = out;
  opt.interval = "100ms";
  opt.perfmonger = g_perfmonger;
  opt.record_caller = 1;
  opt.record_intr = 1;
  opt.pids = pids;
  if (first_disk(disk, sizeof disk)) opt.disks = disks;
  if (cgroups[0]) opt.cgroups = cgroups;
  opt.record_pressure = access("/proc/pressure/cpu", R_OK) == 0;
  perfmonger_recording *rec = perfmonger_new();
  int rc = perfmonger_start(rec, &opt);
  if (rc != 0) fprintf(stderr, "start: %s\n", perfmonger_error(rec));
  EXPECT(rc == 0);
  EXPECT(perfmonger_mark(rec, "query") == 0);
  burn_cpu(0.3);
  snprintf(data, sizeof data, "%s/written", g_dir);
  int fd = open(data, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  EXPECT(fd >= 0);
  static char block[1 << 20];
  for (int i = 0; i < 2; i++) EXPECT(write(fd, block, sizeof block) == (ssize_t)sizeof block);
  close(fd);
  EXPECT(perfmonger_mark(rec, "after") == 0);
  if (stop_complete(rec)) return 1;
  perfmonger_free(rec);
  /* path, caller, other pid, disk or -, cgroup or -, pressure 0/1 */
  printf("%s %d %d %s %s %d\n", out, (int)getpid(), (int)pids[0], disk[0] ? disk : "-",
         cgroups[0] ? cgroups[0] : "-", opt.record_pressure);
  return 0;
}

static long long process_cpu_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static int scenario_phasecost(void) {
  enum { kPhases = 100 };
  char out[4096], label[16];
  /* CPU time at each mark: before its call, after it returns */
  long long before[kPhases + 1], after[kPhases + 1];
  /* what the replies say of the phase each closes: "start" by p0's, ... */
  struct perfmonger_cost cost[kPhases + 2];
  snprintf(out, sizeof out, "%s/phasecost.pgr", g_dir);
  struct perfmonger_options opt = PERFMONGER_OPTIONS_INIT;
  opt.output = out;
  opt.interval = "1s";  /* the marks' samples alone bracket the phases */
  opt.perfmonger = g_perfmonger;
  opt.record_caller = 1;
  perfmonger_recording *rec = perfmonger_new();
  int rc = perfmonger_start(rec, &opt);
  if (rc != 0) fprintf(stderr, "start: %s\n", perfmonger_error(rec));
  EXPECT(rc == 0);
  for (int i = 0; i <= kPhases; i++) {
    snprintf(label, sizeof label, "p%d", i);
    before[i] = process_cpu_ns();
    cost[i] = (struct perfmonger_cost)PERFMONGER_COST_INIT;
    EXPECT(perfmonger_mark_cost(rec, label, &cost[i]) == 0);
    after[i] = process_cpu_ns();
    if (i == kPhases) break;
    while (process_cpu_ns() - after[i] < 3000000) {
    }
  }
  cost[kPhases + 1] = (struct perfmonger_cost)PERFMONGER_COST_INIT;
  EXPECT(perfmonger_stop_cost(rec, &cost[kPhases + 1]) == -ENODATA);  /* not stopped yet */
  struct perfmonger_cost small = PERFMONGER_COST_INIT;
  small.size -= 1;  /* a struct this library does not know: refused, nothing sent */
  EXPECT(perfmonger_mark_cost(rec, "x", &small) == -EINVAL);
  if (stop_complete(rec)) return 1;
  EXPECT(perfmonger_stop_cost(rec, &cost[kPhases + 1]) == 0);
  EXPECT(cost[kPhases + 1].processes == 1);
  perfmonger_free(rec);
  printf("%s %d\n", out, (int)getpid());
  /* per phase: its CPU between the calls, and around them; the reply's
   * cost of the phase (cpu, wait, read, write bytes); then the stop's */
  for (int i = 0; i < kPhases; i++) {
    const struct perfmonger_cost *c = &cost[i + 1];
    printf("%lld %lld %llu %llu %llu %llu\n", before[i + 1] - after[i], after[i + 1] - before[i],
           (unsigned long long)c->cpu_ns, (unsigned long long)c->run_wait_ns,
           (unsigned long long)c->read_bytes, (unsigned long long)c->write_bytes);
  }
  printf("%llu %llu\n", (unsigned long long)cost[kPhases + 1].cpu_ns,
         (unsigned long long)cost[kPhases + 1].run_wait_ns);
  return 0;
}

static int scenario_collectors(void) {
  char out[4096];
  snprintf(out, sizeof out, "%s/collectors.pgr", g_dir);
  const char *record[] = {"load", "sockstat", "vmstat", "cpu", NULL};
  const char *skip[] = {"net", "load_not", NULL};
  struct perfmonger_options opt = PERFMONGER_OPTIONS_INIT;
  opt.output = out;
  opt.perfmonger = g_perfmonger;
  opt.record = record;
  opt.skip = skip;
  perfmonger_recording *rec = perfmonger_new();
  EXPECT(perfmonger_start(rec, &opt) == -EINVAL);  /* "load_not" */
  EXPECT(strstr(perfmonger_error(rec), "options.skip names no collector 'load_not'") != NULL);
  EXPECT(strstr(perfmonger_error(rec), "perfmonger knows: cpu, intr, disk, net, mem") != NULL);
  const char *procs[] = {"procs", NULL};
  opt.record = procs;
  EXPECT(perfmonger_start(rec, &opt) == -EINVAL);
  EXPECT(strstr(perfmonger_error(rec), "use options.pids") != NULL);
  skip[1] = NULL;
  opt.record = record;
  EXPECT(perfmonger_start(rec, &opt) == 0);
  if (stop_complete(rec)) return 1;
  perfmonger_free(rec);
  printf("%s\n", out);
  return 0;
}

static int scenario_options(void) {
  struct perfmonger_options macro = PERFMONGER_OPTIONS_INIT;
  EXPECT(macro.size == sizeof macro && macro.output == NULL && macro.record_caller == 0);
  struct perfmonger_options zero;
  memset(&zero, 0, sizeof zero);
  zero.output = "/tmp/never.pgr";
  perfmonger_recording *rec = perfmonger_new();
  EXPECT(perfmonger_start(rec, &zero) == -EINVAL);
  EXPECT(strstr(perfmonger_error(rec), "PERFMONGER_OPTIONS_INIT") != NULL);
  perfmonger_free(rec);

  /* A caller built against a later header: a larger struct. */
  struct {
    struct perfmonger_options o;
    int later_field;
  } big;
  perfmonger_options_init(&big.o, sizeof big);
  EXPECT(big.o.size == sizeof big && big.later_field == 0);
  char out[4096];
  snprintf(out, sizeof out, "%s/big.pgr", g_dir);
  big.o.output = out;
  big.o.perfmonger = g_perfmonger;
  big.later_field = 1;
  rec = perfmonger_new();
  EXPECT(perfmonger_start(rec, &big.o) == -E2BIG);
  perfmonger_free(rec);
  big.later_field = 0;
  rec = perfmonger_new();
  EXPECT(perfmonger_start(rec, &big.o) == 0);
  struct perfmonger_status small = {sizeof(size_t), 0, 0, 0, 0};
  EXPECT(perfmonger_status(rec, &small) == -EINVAL);
  if (stop_complete(rec)) return 1;
  perfmonger_free(rec);
  return 0;
}

static int scenario_status(void) {
  perfmonger_recording *rec = start("status.pgr", 1);
  EXPECT(rec != NULL);
  struct perfmonger_status st = PERFMONGER_STATUS_INIT;
  EXPECT(perfmonger_status(rec, &st) == 0);
  EXPECT(st.state == PERFMONGER_PAUSED && st.samples == 0 && st.bytes > 0);
  EXPECT(perfmonger_ping(rec) == 0);
  burn_cpu(0.1); /* CPU time: at least as much wall time passes, paused */
  EXPECT(perfmonger_resume(rec) == 0);
  EXPECT(perfmonger_sample(rec) == 0);
  EXPECT(perfmonger_status(rec, &st) == 0);
  EXPECT(st.state == PERFMONGER_RECORDING && st.samples >= 2);
  uint64_t bytes = st.bytes;
  EXPECT(perfmonger_pause(rec) == 0);
  EXPECT(perfmonger_status(rec, &st) == 0);
  EXPECT(st.state == PERFMONGER_PAUSED && st.bytes > bytes);
  if (stop_complete(rec)) return 1;
  perfmonger_free(rec);
  printf("%s/status.pgr\n", g_dir);
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: embed_hold SCENARIO PERFMONGER DIR\n");
    return 2;
  }
  alarm(120); /* a scenario that hangs fails (SIGALRM) rather than stalling */
  g_perfmonger = argv[2];
  g_dir = argv[3];
  static const struct {
    const char *name;
    int (*run)(void);
  } scenarios[] = {
      {"late_reply", scenario_late_reply}, {"worker", scenario_worker},
      {"stopped", scenario_stopped},       {"sigchld", scenario_sigchld},
      {"heap", scenario_heap},             {"messages", scenario_messages},
      {"caller", scenario_caller},         {"options", scenario_options},
      {"status", scenario_status},         {"phasecost", scenario_phasecost},
      {"collectors", scenario_collectors},
  };
  for (size_t i = 0; i < sizeof scenarios / sizeof scenarios[0]; i++)
    if (!strcmp(argv[1], scenarios[i].name)) return scenarios[i].run();
  fprintf(stderr, "unknown scenario %s\n", argv[1]);
  return 2;
}

/* A C99 client of the installed perfmonger-embed library (built by
 * test/embed/run.sh with pkg-config). Each scenario exits 0 when the
 * library behaved as its header promises, and names what failed
 * otherwise.
 *
 * Usage: embed_client SCENARIO PERFMONGER DIR
 *   bracket    stdio only open (pipes land on 3-6): start with metadata,
 *              pause, mark, resume, sample, stop; fds are the same after
 *   manyfds    the same with 300 fds open
 *   pathlookup the same, finding perfmonger on PATH (PERFMONGER unused)
 *   notfound   a perfmonger that does not exist: -ENOENT
 *   unwritable an output in a missing directory: the recorder's setup error
 *   killed     the recorder SIGKILLed mid-run: a command and stop say so
 *   threads    16 recordings at once from 4 threads */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfmonger/embed.h>

#include "client.h"

static const char *g_perfmonger;
static const char *g_dir;

static void work(void) {
  volatile unsigned long sum = 0;
  for (unsigned long i = 0; i < 2000000; i++) sum += i ^ (sum >> 3);
}

/* Start, pause, mark, resume, sample, stop, checking each result. */
static int bracket(const char *out, const char *perfmonger) {
  perfmonger_recording *rec = perfmonger_new();
  EXPECT(rec != NULL);
  struct perfmonger_options opt = PERFMONGER_OPTIONS_INIT;
  const char *meta[] = {"query_id", "q42", "sql", "SELECT * FROM t WHERE id=42", NULL};
  opt.output = out;
  opt.interval = "50ms";
  opt.meta = meta;
  opt.perfmonger = perfmonger;
  int rc = perfmonger_start(rec, &opt);
  if (rc != 0) fprintf(stderr, "start: %d %s\n", rc, perfmonger_error(rec));
  EXPECT(rc == 0);
  EXPECT(perfmonger_pid(rec) > 0);
  EXPECT(perfmonger_running(rec) == 1);
  EXPECT(strcmp(perfmonger_output(rec), out) == 0);
  EXPECT(strlen(perfmonger_start_time(rec)) >= 20);
  work();
  EXPECT(perfmonger_pause(rec) == 0);
  EXPECT(perfmonger_mark(rec, "phase2") == 0);
  EXPECT(perfmonger_mark(rec, "") == -EINVAL);
  EXPECT(perfmonger_resume(rec) == 0);
  work();
  EXPECT(perfmonger_sample(rec) == 0);
  int status = -1, complete = -1;
  rc = perfmonger_stop(rec, &status, &complete);
  if (rc != 0) fprintf(stderr, "stop: %d %s\n", rc, perfmonger_error(rec));
  EXPECT(rc == 0 && status == 0 && complete == 1);
  EXPECT(perfmonger_running(rec) == 0);
  EXPECT(perfmonger_pause(rec) == -ESRCH);
  perfmonger_free(rec);
  return 0;
}

static int bracket_checking_fds(const char *perfmonger) {
  char out[4096];
  snprintf(out, sizeof out, "%s/bracket.pgr.gz", g_dir);
  int before = count_fds();
  if (bracket(out, perfmonger) != 0) return 1;
  int after = count_fds();
  if (before != after) fprintf(stderr, "fds before %d, after %d\n", before, after);
  EXPECT(before == after);
  printf("%s\n", out);
  return 0;
}

static int scenario_bracket(void) {
  close_range(3, ~0U, 0); /* only stdio: the library's pipes land on 3-6 */
  return bracket_checking_fds(g_perfmonger);
}

static int scenario_manyfds(void) {
  for (int i = 0; i < 300; i++)
    if (open("/dev/null", O_RDONLY) < 0) return 1;
  return bracket_checking_fds(g_perfmonger);
}

static int scenario_notfound(void) {
  perfmonger_recording *rec = perfmonger_new();
  struct perfmonger_options opt = PERFMONGER_OPTIONS_INIT;
  opt.output = "/tmp/never.pgr";
  opt.perfmonger = "/nonexistent/perfmonger";
  EXPECT(perfmonger_start(rec, &opt) == -ENOENT);
  EXPECT(strstr(perfmonger_error(rec), "/nonexistent/perfmonger") != NULL);
  perfmonger_free(rec);
  rec = perfmonger_new();
  opt.perfmonger = "no-such-perfmonger-here";
  EXPECT(perfmonger_start(rec, &opt) == -ENOENT);
  EXPECT(strstr(perfmonger_error(rec), "on PATH") != NULL);
  perfmonger_free(rec);
  return 0;
}

static int scenario_unwritable(void) {
  perfmonger_recording *rec = perfmonger_new();
  struct perfmonger_options opt = PERFMONGER_OPTIONS_INIT;
  opt.output = "/nonexistent-dir/x.pgr";
  opt.perfmonger = g_perfmonger;
  EXPECT(perfmonger_start(rec, &opt) == -ECHILD);
  EXPECT(perfmonger_exit_status(rec) == 1);
  EXPECT(strstr(perfmonger_error(rec), "perfmonger record: error:") != NULL);
  printf("%s\n", perfmonger_error(rec));
  perfmonger_free(rec);
  return 0;
}

static int scenario_killed(void) {
  char out[4096];
  snprintf(out, sizeof out, "%s/killed.pgr", g_dir);
  perfmonger_recording *rec = perfmonger_new();
  struct perfmonger_options opt = PERFMONGER_OPTIONS_INIT;
  opt.output = out;
  opt.interval = "50ms";
  opt.perfmonger = g_perfmonger;
  EXPECT(perfmonger_start(rec, &opt) == 0);
  int pidfd = pidfd_of(perfmonger_pid(rec));
  EXPECT(pidfd >= 0);
  EXPECT(kill(perfmonger_pid(rec), SIGKILL) == 0);
  EXPECT(readable_in_time(pidfd)); /* dead for sure before the next call */
  close(pidfd);
  /* Not "Broken pipe": how the recorder ended. */
  EXPECT(perfmonger_mark(rec, "after") == -ESRCH);
  EXPECT(strstr(perfmonger_error(rec), "killed by signal 9") != NULL);
  int status = -1, complete = -1;
  EXPECT(perfmonger_stop(rec, &status, &complete) == -ECHILD);
  EXPECT(status == 128 + SIGKILL && complete == 0);
  EXPECT(strstr(perfmonger_error(rec), "killed by signal 9") != NULL);
  perfmonger_free(rec);
  return 0;
}

struct thread_job {
  int index;
  int failed;
};

static void *run_four(void *arg) {
  struct thread_job *job = arg;
  perfmonger_recording *recs[4];
  char out[4][4096];
  for (int i = 0; i < 4; i++) {
    snprintf(out[i], sizeof out[i], "%s/t%d-%d.pgr.zst", g_dir, job->index, i);
    struct perfmonger_options opt = PERFMONGER_OPTIONS_INIT;
    opt.output = out[i];
    opt.interval = "20ms";
    opt.perfmonger = g_perfmonger;
    recs[i] = perfmonger_new();
    if (perfmonger_start(recs[i], &opt) != 0) {
      fprintf(stderr, "thread %d start %d: %s\n", job->index, i, perfmonger_error(recs[i]));
      job->failed = 1;
    }
  }
  for (int i = 0; i < 4; i++)
    if (!job->failed && perfmonger_mark(recs[i], "both") != 0) job->failed = 1;
  for (int i = 0; i < 4; i++) {
    int status = -1;
    if (!job->failed && perfmonger_stop(recs[i], &status, NULL) != 0) job->failed = 1;
    perfmonger_free(recs[i]);
  }
  return NULL;
}

static int scenario_threads(void) {
  int before = count_fds();
  pthread_t threads[4];
  struct thread_job jobs[4];
  for (int t = 0; t < 4; t++) {
    jobs[t].index = t;
    jobs[t].failed = 0;
    EXPECT(pthread_create(&threads[t], NULL, run_four, &jobs[t]) == 0);
  }
  for (int t = 0; t < 4; t++) pthread_join(threads[t], NULL);
  for (int t = 0; t < 4; t++) EXPECT(!jobs[t].failed);
  EXPECT(count_fds() == before);
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: embed_client SCENARIO PERFMONGER DIR\n");
    return 2;
  }
  g_perfmonger = argv[2];
  g_dir = argv[3];
  const char *s = argv[1];
  if (!strcmp(s, "bracket")) return scenario_bracket();
  if (!strcmp(s, "manyfds")) return scenario_manyfds();
  if (!strcmp(s, "pathlookup")) return bracket_checking_fds(NULL);
  if (!strcmp(s, "notfound")) return scenario_notfound();
  if (!strcmp(s, "unwritable")) return scenario_unwritable();
  if (!strcmp(s, "killed")) return scenario_killed();
  if (!strcmp(s, "threads")) return scenario_threads();
  fprintf(stderr, "unknown scenario %s\n", s);
  return 2;
}

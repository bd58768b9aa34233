/* A libpq client that brackets queries with perfmonger-embed's marks
 * (issue 47): it records its backend's PID, and for each of 200 queries
 * of 0.5 to 50 ms of CPU reads the backend's /proc/PID/schedstat run time
 * just before and just after the query, between a mark that opens the
 * phase and the next mark, whose reply hands the phase's cost back. Each
 * read waits until the backend sleeps (its work for the query done):
 * schedstat's run time leaves out a running task's current slice.
 *   pg_queries CONNINFO PERFMONGER OUTPUT
 * Prints the output path and the backend's pid, then one line per query:
 * "SCHEDSTAT_DELTA_NS REPLY_CPU_NS"; run_pg.sh compares them and the file. */
#define _GNU_SOURCE
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <perfmonger/embed.h>

enum { kQueries = 200 };

static double Now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Until the backend's state (after its comm's last ')') is S: waiting for
 * the next query. A deadline of seconds, no sleep. */
static void AwaitAsleep(int pid) {
  char path[64], text[512];
  snprintf(path, sizeof path, "/proc/%d/stat", pid);
  for (double deadline = Now() + 10;;) {
    FILE *f = fopen(path, "re");
    size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f) fclose(f);
    text[n] = 0;
    const char *paren = strrchr(text, ')');
    if (paren && paren[1] == ' ' && paren[2] == 'S') return;
    if (Now() > deadline) {
      fprintf(stderr, "the backend %d did not go back to sleep within 10 s\n", pid);
      exit(1);
    }
  }
}

static unsigned long long RunNs(int pid) {
  AwaitAsleep(pid);
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/schedstat", pid);
  FILE *f = fopen(path, "re");
  unsigned long long run = 0;
  if (!f || fscanf(f, "%llu", &run) != 1) {
    fprintf(stderr, "cannot read %s\n", path);
    exit(1);
  }
  fclose(f);
  return run;
}

static void Exec(PGconn *conn, const char *sql) {
  PGresult *r = PQexec(conn, sql);
  if (PQresultStatus(r) != PGRES_TUPLES_OK && PQresultStatus(r) != PGRES_COMMAND_OK) {
    fprintf(stderr, "%s: %s", sql, PQerrorMessage(conn));
    exit(1);
  }
  PQclear(r);
}

int main(int argc, char **argv) {
  if (argc != 4) return 2;
  PGconn *conn = PQconnectdb(argv[1]);
  if (PQstatus(conn) != CONNECTION_OK) {
    fprintf(stderr, "connect: %s", PQerrorMessage(conn));
    return 1;
  }
  int backend = PQbackendPID(conn);
  Exec(conn, "SET max_parallel_workers_per_gather = 0");
  pid_t pids[] = {backend, 0};
  struct perfmonger_options opt = PERFMONGER_OPTIONS_INIT;
  opt.output = argv[3];
  opt.interval = "10s";  /* the marks' samples alone bracket the queries */
  opt.perfmonger = argv[2];
  opt.pids = pids;
  perfmonger_recording *rec = perfmonger_new();
  if (perfmonger_start(rec, &opt) != 0) {
    fprintf(stderr, "start: %s\n", perfmonger_error(rec));
    return 1;
  }
  unsigned long long delta[kQueries];
  struct perfmonger_cost cost[kQueries + 1];
  char label[16], sql[128];
  for (int i = 0; i <= kQueries; i++) {
    snprintf(label, sizeof label, "q%d", i);
    cost[i] = (struct perfmonger_cost)PERFMONGER_COST_INIT;
    if (perfmonger_mark_cost(rec, label, &cost[i]) != 0) {
      fprintf(stderr, "mark: %s\n", perfmonger_error(rec));
      return 1;
    }
    if (i == kQueries) break;
    /* from ~5,000 to ~500,000 rows: about 0.5 to 50 ms of the backend's CPU */
    long rows = 5000 + (long)i * i * 12;
    snprintf(sql, sizeof sql, "SELECT count(*) FROM generate_series(1, %ld)", rows);
    unsigned long long before = RunNs(backend);
    Exec(conn, sql);
    delta[i] = RunNs(backend) - before;
  }
  int status = 0, complete = 0;
  if (perfmonger_stop(rec, &status, &complete) != 0 || !complete) {
    fprintf(stderr, "stop: %s\n", perfmonger_error(rec));
    return 1;
  }
  perfmonger_free(rec);
  PQfinish(conn);
  printf("%s %d\n", argv[3], backend);
  for (int i = 0; i < kQueries; i++) printf("%llu %llu\n", delta[i], (unsigned long long)cost[i + 1].cpu_ns);
  return 0;
}

/* What the PostgreSQL clients of the embedding library share (issue 47):
 * a process's own run time as the kernel counts it (/proc/PID/schedstat,
 * read once it sleeps), and queries that must succeed. */
#ifndef PERFMONGER_TEST_EMBED_PG_CLIENT_H
#define PERFMONGER_TEST_EMBED_PG_CLIENT_H

#include <libpq-fe.h>
#include <perfmonger/embed.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static inline double Now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* /proc/PID/stat's state (after its comm's last ')'), or 0 when gone. */
static inline char ProcState(int pid) {
  char path[64], text[512];
  snprintf(path, sizeof path, "/proc/%d/stat", pid);
  FILE *f = fopen(path, "re");
  size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
  if (f) fclose(f);
  text[n] = 0;
  const char *paren = strrchr(text, ')');
  return paren && paren[1] == ' ' ? paren[2] : 0;
}

/* Until the backend's state is S: waiting for the next query. A deadline
 * of seconds, no sleep. */
static inline void AwaitAsleep(int pid) {
  for (double deadline = Now() + 10; ProcState(pid) != 'S';) {
    if (Now() > deadline) {
      fprintf(stderr, "the backend %d did not go back to sleep within 10 s\n", pid);
      exit(1);
    }
  }
}

/* schedstat's run time: that of a running task leaves out its current
 * slice, that of a zombie (exited, not yet reaped) is final. */
static inline unsigned long long SchedstatRunNs(int pid) {
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

static inline unsigned long long RunNs(int pid) {
  AwaitAsleep(pid);
  return SchedstatRunNs(pid);
}

static inline void Check(PGconn *conn, PGresult *r, const char *sql) {
  if (PQresultStatus(r) != PGRES_TUPLES_OK && PQresultStatus(r) != PGRES_COMMAND_OK) {
    fprintf(stderr, "%s: %s", sql, PQerrorMessage(conn));
    exit(1);
  }
}

static inline void Exec(PGconn *conn, const char *sql) {
  PGresult *r = PQexec(conn, sql);
  Check(conn, r, sql);
  PQclear(r);
}

static inline PGconn *Connect(const char *conninfo) {
  PGconn *conn = PQconnectdb(conninfo);
  if (PQstatus(conn) != CONNECTION_OK) {
    fprintf(stderr, "connect: %s", PQerrorMessage(conn));
    exit(1);
  }
  return conn;
}

/* A recording of the machine and of `backend` (--pid), the marks' samples
 * alone bracketing the queries (10 s interval). */
static inline perfmonger_recording *StartRecording(const char *perfmonger, const char *output,
                                                   pid_t backend) {
  static pid_t pids[2];
  pids[0] = backend;
  struct perfmonger_options opt = PERFMONGER_OPTIONS_INIT;
  opt.output = output;
  opt.interval = "10s";
  opt.perfmonger = perfmonger;
  opt.pids = pids;
  perfmonger_recording *rec = perfmonger_new();
  if (perfmonger_start(rec, &opt) != 0) {
    fprintf(stderr, "start: %s\n", perfmonger_error(rec));
    exit(1);
  }
  return rec;
}

#endif

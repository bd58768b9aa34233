/* A parallel query's cost handed back by perfmonger-embed (issue 47): the
 * client records its backend (the leader), runs a query that PostgreSQL
 * splits over 4 workers, learns the workers from pg_stat_activity.leader_pid
 * on a second connection while the query runs, and names them to the
 * recorder (perfmonger_name_pid). The mark that closes the query's phase
 * must hand back the leader's schedstat delta plus each worker's whole
 * schedstat run time (they are born inside the phase).
 *
 * A worker's last nanoseconds are readable only between its exit and its
 * reaping by the postmaster, which reaps at once: the client holds the
 * postmaster stopped (SIGSTOP) from the moment the workers are named until
 * each has exited, reads each zombie's final schedstat, asks the recorder
 * for a sample (which reads them too), and lets the postmaster go on.
 *   pg_parallel CONNINFO PERFMONGER OUTPUT
 * Prints "OUTPUT LEADER_PID", then "REFERENCE_NS REPLY_CPU_NS PROCESSES". */
#define _GNU_SOURCE
#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pg_client.h"

enum { kWorkers = 4 };

static pid_t postmaster;

static void Continue(void) {
  if (postmaster > 0) kill(postmaster, SIGCONT);
}

static pid_t ParentOf(int pid) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/stat", pid);
  FILE *f = fopen(path, "re");
  char text[512];
  size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
  if (f) fclose(f);
  text[n] = 0;
  const char *paren = strrchr(text, ')');
  int ppid = 0;
  if (!paren || sscanf(paren + 2, "%*c %d", &ppid) != 1) exit(1);
  return ppid;
}

/* The leader's workers as pg_stat_activity lists them, polled until all
 * kWorkers run (a deadline of seconds). */
static int Workers(PGconn *poller, int leader, int *out) {
  char sql[160];
  snprintf(sql, sizeof sql,
           "SELECT pid FROM pg_stat_activity WHERE leader_pid = %d AND pid <> %d", leader, leader);
  for (double deadline = Now() + 30;;) {
    PGresult *r = PQexec(poller, sql);
    Check(poller, r, sql);
    int n = PQntuples(r);
    for (int i = 0; i < n && i < kWorkers; i++) out[i] = atoi(PQgetvalue(r, i, 0));
    PQclear(r);
    if (n >= kWorkers) return kWorkers;
    if (Now() > deadline) {
      fprintf(stderr, "only %d parallel workers within 30 s\n", n);
      exit(1);
    }
  }
}

/* Each worker's final run time, read from its zombie. */
static unsigned long long AwaitExits(const int *workers) {
  unsigned long long sum = 0;
  for (int i = 0; i < kWorkers; i++) {
    int fd = (int)syscall(SYS_pidfd_open, workers[i], 0);
    struct pollfd p = {fd, POLLIN, 0};
    if (fd < 0 || poll(&p, 1, 30000) != 1) {
      fprintf(stderr, "worker %d did not exit within 30 s\n", workers[i]);
      exit(1);
    }
    close(fd);
    if (ProcState(workers[i]) != 'Z') exit(1);
    sum += SchedstatRunNs(workers[i]);
  }
  return sum;
}

static void Settle(PGconn *conn) {
  for (PGresult *r; (r = PQgetResult(conn));) {
    Check(conn, r, "the parallel query");
    PQclear(r);
  }
}

int main(int argc, char **argv) {
  if (argc != 4) return 2;
  PGconn *conn = Connect(argv[1]), *poller = Connect(argv[1]);
  int leader = PQbackendPID(conn);
  postmaster = ParentOf(leader);
  atexit(Continue);
  Exec(conn, "SET max_parallel_workers_per_gather = 4");
  Exec(conn, "SET parallel_setup_cost = 0");
  Exec(conn, "SET parallel_tuple_cost = 0");
  Exec(conn, "SET min_parallel_table_scan_size = 0");
  Exec(conn, "CREATE TABLE t AS SELECT g AS x FROM generate_series(1, 1000000) g");
  Exec(conn, "ANALYZE t");
  perfmonger_recording *rec = StartRecording(argv[2], argv[3], leader);
  struct perfmonger_cost cost = PERFMONGER_COST_INIT;
  if (perfmonger_mark(rec, "parallel") != 0) return 1;
  unsigned long long before = RunNs(leader);
  const char *sql = "SELECT count(*) FROM t WHERE md5(x::text) LIKE '%ab%'";
  if (!PQsendQuery(conn, sql)) return 1;
  int workers[kWorkers];
  Workers(poller, leader, workers);
  if (kill(postmaster, SIGSTOP) != 0) return 1;
  for (int i = 0; i < kWorkers; i++)
    if (perfmonger_name_pid(rec, workers[i]) != 0) {
      fprintf(stderr, "name %d: %s\n", workers[i], perfmonger_error(rec));
      return 1;
    }
  unsigned long long reference = AwaitExits(workers);
  if (perfmonger_sample(rec) != 0) return 1;  /* the zombies, read */
  Continue();
  Settle(conn);
  reference += RunNs(leader) - before;
  if (perfmonger_mark_cost(rec, "done", &cost) != 0) {
    fprintf(stderr, "mark: %s\n", perfmonger_error(rec));
    return 1;
  }
  int status = 0, complete = 0;
  if (perfmonger_stop(rec, &status, &complete) != 0 || !complete) return 1;
  perfmonger_free(rec);
  PQfinish(poller);
  PQfinish(conn);
  printf("%s %d\n%llu %llu %llu\n", argv[3], leader, reference,
         (unsigned long long)cost.cpu_ns, (unsigned long long)cost.processes);
  return 0;
}

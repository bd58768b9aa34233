/* A libpq client that brackets queries with perfmonger-embed's marks
 * (issue 47): it records its backend's PID, and for each of 200 queries
 * of 0.5 to 50 ms of CPU reads the backend's /proc/PID/schedstat run time
 * just before and just after the query, between a mark that opens the
 * phase and the next mark, whose reply hands the phase's cost back. Each
 * read waits until the backend sleeps (its work for the query done):
 * schedstat's run time leaves out a running task's current slice. The run
 * time is read before and after each mark too: what the backend did while
 * idle but inside a phase (a timer's work, such as PostgreSQL's idle
 * flush of its statistics) is in the reply and not in the query's delta,
 * and the reply must lie between the two.
 *   pg_queries CONNINFO PERFMONGER OUTPUT
 * Prints the output path and the backend's pid, then one line per query:
 * "SCHEDSTAT_DELTA_NS REPLY_CPU_NS MARKS_DELTA_NS", the last from before
 * the phase's opening mark to after its closing one; run_pg.sh compares
 * them and the file. */
#define _GNU_SOURCE
#include <perfmonger/embed.h>

#include "pg_client.h"

enum { kQueries = 200 };

int main(int argc, char **argv) {
  if (argc != 4) return 2;
  PGconn *conn = Connect(argv[1]);
  int backend = PQbackendPID(conn);
  Exec(conn, "SET max_parallel_workers_per_gather = 0");
  perfmonger_recording *rec = StartRecording(argv[2], argv[3], backend);
  unsigned long long delta[kQueries], pre_mark[kQueries + 1], post_mark[kQueries + 1];
  struct perfmonger_cost cost[kQueries + 1];
  char label[16], sql[128];
  for (int i = 0; i <= kQueries; i++) {
    snprintf(label, sizeof label, "q%d", i);
    cost[i] = (struct perfmonger_cost)PERFMONGER_COST_INIT;
    pre_mark[i] = RunNs(backend);
    if (perfmonger_mark_cost(rec, label, &cost[i]) != 0) {
      fprintf(stderr, "mark: %s\n", perfmonger_error(rec));
      return 1;
    }
    post_mark[i] = RunNs(backend);
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
  for (int i = 0; i < kQueries; i++)
    printf("%llu %llu %llu\n", delta[i], (unsigned long long)cost[i + 1].cpu_ns,
           post_mark[i + 1] - pre_mark[i]);
  return 0;
}

/* perfmonger-embed: record system activity around a unit of work from a C
 * (or C++) program, without holding the fd contract of `perfmonger record`
 * wrong.
 *
 * The library starts `perfmonger record` as a child (without forking the
 * caller: its memory is neither copied nor write-protected, whatever its
 * size) with its ready, stop, command and acknowledgement fds wired
 * (whatever numbers pipe() returns in the caller), waits for the ready
 * line, and drives pause, resume, mark, sample, status and ping over the
 * command fd, each call returning once the recorder has acknowledged that
 * very command (replies are matched by sequence number, so a reply that
 * came late never answers a later call). Stopping asks the recorder over
 * the command fd and waits, within the handle's timeout, for its reply and
 * its exit, so neither a forked worker holding the stop pipe nor the
 * caller's SIGCHLD setup changes the result. Every fd it creates is
 * close-on-exec; it never raises SIGPIPE in the caller, installs no signal
 * handler and reaps no child but its own; it keeps no global state, so
 * many recordings may run at once from one process and from several
 * threads (each handle used by one thread at a time).
 *
 *   perfmonger_recording *rec = perfmonger_new();
 *   struct perfmonger_options opt = PERFMONGER_OPTIONS_INIT;
 *   opt.output = "/tmp/q42.pgr.gz";
 *   opt.interval = "100ms";
 *   opt.record_caller = 1;
 *   const char *meta[] = {"query_id", "q42", "sql", "SELECT 1", NULL};
 *   opt.meta = meta;
 *   if (perfmonger_start(rec, &opt) != 0) {
 *     fprintf(stderr, "%s\n", perfmonger_error(rec));
 *   } else {
 *     run_query();
 *     int status, complete;
 *     perfmonger_stop(rec, &status, &complete);
 *   }
 *   perfmonger_free(rec);
 *
 * Every call returns 0 or a negative errno value; perfmonger_error() then
 * says what happened in one line. See perfmonger-embed(3). */
#ifndef PERFMONGER_EMBED_H
#define PERFMONGER_EMBED_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct perfmonger_recording perfmonger_recording;

/* Options of perfmonger_start(). Initialise with PERFMONGER_OPTIONS_INIT
 * (or perfmonger_options_init()), then set the fields you need: `size`
 * says which fields the caller knows, so fields added in later versions
 * (always at the end) read as zero for a caller built before them. */
struct perfmonger_options {
  /* sizeof(struct perfmonger_options) as the caller was compiled. */
  size_t size;
  /* The recording's path (-l); required, not "-". .gz: gzip, .zst: zstd,
   * else plain. */
  const char *output;
  /* The sampling interval as perfmonger takes it ("0.1", "100ms");
   * NULL: the recorder's default (1 s). */
  const char *interval;
  /* Key/value pairs as raw strings, NULL-terminated (key, value, key,
   * value, ..., NULL); the library percent-encodes them for --meta. */
  const char *const *meta;
  /* Non-zero: write the header and ready line, sample from the first
   * perfmonger_resume(); the time until then counts as paused. */
  int start_paused;
  /* Collectors: non-zero turns one off (cpu, disk, net, mem) or, for
   * interrupts, on (--record-intr). */
  int no_cpu, no_disk, no_net, no_mem, record_intr;
  /* The perfmonger executable: a path, or a name looked up on PATH.
   * NULL: "perfmonger" on PATH. */
  const char *perfmonger;
  /* How long perfmonger_start() and each acknowledged call (stop too)
   * wait, in milliseconds; 0: 10000. */
  int timeout_ms;
  /* -d: only these disks ("vda", "/dev/vda"), NULL-terminated; NULL: every
   * disk with I/O. */
  const char *const *disks;
  /* --pid: these processes' CPU time and I/O, 0-terminated; NULL: none. */
  const pid_t *pids;
  /* --cgroup: these cgroup v2 groups (below the cgroup2 mount, or
   * absolute), NULL-terminated; NULL: none. */
  const char *const *cgroups;
  /* Non-zero: --record-pressure (pressure stall times). */
  int record_pressure;
  /* Non-zero: the calling process as a --pid row, so that summaries show
   * its own CPU seconds and bytes beside the machine's. */
  int record_caller;
  /* Collectors by name, as perfmonger-record(1) and pgr(5) name them
   * ("intr", "pressure", "load", "vmstat", "netstat", "sockstat", ...),
   * each list NULL-terminated: `record` turns these on, `skip` these off
   * ("cpu", "disk", "net", "mem"). A name perfmonger does not know, or one
   * whose rows are named (procs, cgroups: `pids`, `cgroups`), is -EINVAL
   * with the known names in the message. NULL: none. Every collector, a
   * later one too, is reached through these: none adds a field. */
  const char *const *record;
  const char *const *skip;
};

/* Every member named, so that neither C nor C++ warns of one left out. */
#define PERFMONGER_OPTIONS_INIT                                                \
  { .size = sizeof(struct perfmonger_options), .output = NULL, .interval = NULL, \
    .meta = NULL, .start_paused = 0, .no_cpu = 0, .no_disk = 0, .no_net = 0,     \
    .no_mem = 0, .record_intr = 0, .perfmonger = NULL, .timeout_ms = 0,          \
    .disks = NULL, .pids = NULL, .cgroups = NULL, .record_pressure = 0,          \
    .record_caller = 0, .record = NULL, .skip = NULL }

/* Zeroes the `size` bytes at `options` and sets options->size: the same as
 * PERFMONGER_OPTIONS_INIT, for callers that cannot use the macro. */
void perfmonger_options_init(struct perfmonger_options *options, size_t size);

/* A handle for one recording; NULL when out of memory. */
perfmonger_recording *perfmonger_new(void);

/* Starts the recorder and returns once its ready line has been read (the
 * first sample is on disk): 0. Otherwise a negative errno:
 *   -ENOENT     the perfmonger executable was not found
 *   -EACCES     it names a directory or a file without execute permission
 *   -ECHILD     the recorder exited before it was ready; its exit status
 *               is perfmonger_exit_status() (1: a setup error) and
 *               perfmonger_error() its message
 *   -ETIMEDOUT  no ready line in time (the recorder has been killed; the
 *               message keeps what it wrote on stderr)
 *   -EINVAL     bad options (no size, no output or "-", an odd meta list)
 *   -E2BIG      options set beyond the fields this library knows
 *   -EALREADY   this handle was started before
 *   other       a system call failed (the message names it) */
int perfmonger_start(perfmonger_recording *rec,
                     const struct perfmonger_options *options);

/* Each sends one command and waits for its own acknowledgement: 0 once the
 * effect is on disk. -EPROTO when the recorder refused it (the message
 * has its error code), -ESRCH when the recorder is gone (the message says
 * how it ended) or is being stopped, -ETIMEDOUT (the reply, if it comes,
 * is discarded by the next call), -EINVAL (a label of 1 to 128 printable
 * ASCII bytes is needed). */
int perfmonger_pause(perfmonger_recording *rec);
int perfmonger_resume(perfmonger_recording *rec);
int perfmonger_mark(perfmonger_recording *rec, const char *label);
int perfmonger_sample(perfmonger_recording *rec);
/* What the system under test (the --pid rows: the caller with
 * record_caller, and `pids`) used over a phase, summed over the processes
 * recorded at both its ends: exactly what the recording holds for that
 * phase (docs/phase-cost.md). Initialise with PERFMONGER_COST_INIT: `size`
 * says which fields the caller knows, so fields added later (always at the
 * end) are left alone for a caller built before them. */
struct perfmonger_cost {
  size_t size;           /* sizeof(struct perfmonger_cost), set by the caller */
  uint64_t cpu_ns;       /* CPU time (each process's CPU clock) */
  uint64_t run_wait_ns;  /* time runnable, waiting for a CPU (schedstat) */
  uint64_t read_bytes;   /* storage bytes read (/proc/PID/io) */
  uint64_t write_bytes;  /* storage bytes written */
  uint64_t minflt;       /* minor page faults */
  uint64_t majflt;       /* major page faults */
  uint64_t ctxsw;        /* times switched onto a CPU */
  uint64_t processes;    /* processes counted (0: none recorded) */
};
#define PERFMONGER_COST_INIT                                                 \
  { .size = sizeof(struct perfmonger_cost), .cpu_ns = 0, .run_wait_ns = 0,   \
    .read_bytes = 0, .write_bytes = 0, .minflt = 0, .majflt = 0, .ctxsw = 0, \
    .processes = 0 }
/* perfmonger_mark(), and the phase the mark closes (from the start or the
 * previous mark to this one) as its reply carries it into *cost: its
 * sample is on disk when this returns. Fails as perfmonger_mark(), and
 * with -EINVAL when cost is NULL or cost->size too small. */
int perfmonger_mark_cost(perfmonger_recording *rec, const char *label,
                         struct perfmonger_cost *cost);
/* After a perfmonger_stop() whose stop the recorder acknowledged: the last
 * phase's cost (from the last mark, or the start, to the stop). 0, or
 * -ENODATA when there is no such reply (not stopped, stopped otherwise),
 * -EINVAL as above. */
int perfmonger_stop_cost(perfmonger_recording *rec, struct perfmonger_cost *cost);
/* Counts process `pid` with the system under test from now on, as `pids`
 * does from the start: a PostgreSQL backend's parallel workers, learnt from
 * pg_stat_activity.leader_pid while the query runs. It is counted from its
 * birth when it was born inside the current phase (else from now), read at
 * every sample, and keeps its last reading once it is gone: call
 * perfmonger_sample() after it exits and before its parent reaps it to
 * count its very last nanoseconds (docs/phase-cost.md). Later mark and stop
 * costs include it. Naming one already named is 0. Fails as
 * perfmonger_mark(); -EPROTO "no_such_process" (none, or not readable),
 * "no_system_under_test" (neither `pids`, `record_caller` nor `cgroups`
 * given), -EINVAL for pid <= 0. */
int perfmonger_name_pid(perfmonger_recording *rec, pid_t pid);
/* A round trip that changes nothing: the recorder is alive and reading. */
int perfmonger_ping(perfmonger_recording *rec);

enum perfmonger_state { PERFMONGER_RECORDING = 1, PERFMONGER_PAUSED = 2 };

struct perfmonger_status {
  size_t size;            /* sizeof(struct perfmonger_status), set by the caller */
  int state;              /* PERFMONGER_RECORDING or PERFMONGER_PAUSED */
  uint64_t samples;       /* samples written */
  uint64_t missed_ticks;  /* ticks passed without a sample (the recorder was late) */
  uint64_t bytes;         /* bytes written to the output (compressed) */
};

#define PERFMONGER_STATUS_INIT                                          \
  { .size = sizeof(struct perfmonger_status), .state = 0, .samples = 0, \
    .missed_ticks = 0, .bytes = 0 }

/* The recorder's state, as its reply to `status` says; fails as the
 * commands above (and -EINVAL when status->size is too small). */
int perfmonger_status(perfmonger_recording *rec, struct perfmonger_status *status);

/* Changes how long each later call waits (as options.timeout_ms; 0:
 * 10000): e.g. a generous start, then a tight bound per query. 0, or
 * -EINVAL for a negative value. */
int perfmonger_set_timeout(perfmonger_recording *rec, int timeout_ms);

/* Stops the recording: a `stop` command (a final sample at this instant,
 * the end trailer, fsync, then its reply), then the recorder's exit, both
 * within timeout_ms; EOF on the stop pipe is the fallback when no command
 * can be sent. `exit_status` (may be NULL) gets its exit status: 0
 * complete, 2 collection error, 128+N killed by signal N, -1 when it could
 * not be collected (the caller ignores SIGCHLD or reaped the recorder).
 * `complete` (may be NULL) gets 1 when the recording was closed cleanly,
 * known from the recorder's reply (or its exit status 0). Returns 0 when
 * complete, -EIO for exit status 2, -ECHILD when it was killed or ended
 * otherwise, -ETIMEDOUT when it did not stop in time (it still runs: call
 * again, or perfmonger_free()), -ESRCH when it was never started. */
int perfmonger_stop(perfmonger_recording *rec, int *exit_status,
                    int *complete);

/* Without waiting: 1 while the recorder runs, 0 once it has exited (it is
 * then reaped, and perfmonger_exit_status() says how). */
int perfmonger_running(perfmonger_recording *rec);

/* The last error's message ("" when none); valid until the next call.
 * After a stop that succeeded without an exit status, it says so. */
const char *perfmonger_error(const perfmonger_recording *rec);

/* The recorder's pid, the output path (the caller's bytes, made absolute)
 * and the start time from the ready line (RFC 3339, UTC). 0 / NULL before
 * a successful start. */
pid_t perfmonger_pid(const perfmonger_recording *rec);
const char *perfmonger_output(const perfmonger_recording *rec);
const char *perfmonger_start_time(const perfmonger_recording *rec);

/* The recorder's exit status once it has exited (as for perfmonger_stop),
 * else -1. */
int perfmonger_exit_status(const perfmonger_recording *rec);

/* Ends a recording still running and frees the handle, never blocking
 * beyond a bound: a stop (timeout_ms), then SIGTERM, then SIGKILL, each
 * given timeout_ms. NULL is allowed. */
void perfmonger_free(perfmonger_recording *rec);

#ifdef __cplusplus
}
#endif

#endif /* PERFMONGER_EMBED_H */

/* perfmonger-embed: record system activity around a unit of work from a C
 * (or C++) program, without holding the fd contract of `perfmonger record`
 * wrong.
 *
 * The library starts `perfmonger record` as a child with its ready, stop,
 * command and acknowledgement fds wired (whatever numbers pipe() returns in
 * the caller), waits for the ready line, and drives pause, resume, mark and
 * sample over the command fd, each call returning once the recorder has
 * acknowledged the effect on disk. Stopping closes the stop pipe and reaps
 * the child. Every fd it creates is close-on-exec; it never raises SIGPIPE
 * in the caller, installs no signal handler and reaps no child but its own;
 * it keeps no global state, so many recordings may run at once from one
 * process and from several threads (each handle used by one thread at a
 * time).
 *
 *   perfmonger_recording *rec = perfmonger_new();
 *   struct perfmonger_options opt = PERFMONGER_OPTIONS_INIT;
 *   opt.output = "/tmp/q42.pgr.gz";
 *   opt.interval = "100ms";
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

#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct perfmonger_recording perfmonger_recording;

struct perfmonger_options {
  /* The recording's path (-l); required. .gz: gzip, .zst: zstd, else plain. */
  const char *output;
  /* The sampling interval as perfmonger takes it ("0.1", "100ms");
   * NULL: the recorder's default (1 s). */
  const char *interval;
  /* Key/value pairs as raw strings, NULL-terminated (key, value, key,
   * value, ..., NULL); the library percent-encodes them for --meta. */
  const char *const *meta;
  /* Non-zero: write the header and ready line, sample from the first
   * perfmonger_resume(). */
  int start_paused;
  /* Collectors: non-zero turns one off (cpu, disk, net, mem) or, for
   * interrupts, on. */
  int no_cpu, no_disk, no_net, no_mem, record_intr;
  /* The perfmonger executable: a path, or a name looked up on PATH.
   * NULL: "perfmonger" on PATH. */
  const char *perfmonger;
  /* How long perfmonger_start() and each acknowledged call wait, in
   * milliseconds; 0: 10000. */
  int timeout_ms;
};

#define PERFMONGER_OPTIONS_INIT {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}

/* A handle for one recording; NULL when out of memory. */
perfmonger_recording *perfmonger_new(void);

/* Starts the recorder and returns once its ready line has been read (the
 * first sample is on disk): 0. Otherwise a negative errno:
 *   -ENOENT     the perfmonger executable was not found
 *   -ECHILD     the recorder exited before it was ready; its exit status
 *               is perfmonger_exit_status() (1: a setup error) and
 *               perfmonger_error() its message
 *   -ETIMEDOUT  no ready line in time (the recorder has been killed)
 *   -EINVAL     bad options (no output, a meta list with an odd length)
 *   -EALREADY   this handle was started before
 *   other       a system call failed (the message names it) */
int perfmonger_start(perfmonger_recording *rec,
                     const struct perfmonger_options *options);

/* Each sends one command and waits for its acknowledgement: 0 once the
 * effect is on disk. -EPROTO when the recorder refused it (the message
 * has its error code), -ESRCH when the recorder is gone, -ETIMEDOUT,
 * -EINVAL (a label of 1 to 128 printable ASCII bytes is needed). */
int perfmonger_pause(perfmonger_recording *rec);
int perfmonger_resume(perfmonger_recording *rec);
int perfmonger_mark(perfmonger_recording *rec, const char *label);
int perfmonger_sample(perfmonger_recording *rec);

/* Stops the recording (EOF on its stop fd: a final sample at this
 * instant, the end trailer, fsync) and reaps the recorder. `exit_status`
 * (may be NULL) gets its exit status: 0 complete, 2 collection error,
 * 128+N killed by signal N. `complete` (may be NULL) gets 1 when the
 * recording was closed cleanly. Returns 0 when complete, -EIO for exit
 * status 2, -ECHILD when it was killed, -ESRCH when it was never started. */
int perfmonger_stop(perfmonger_recording *rec, int *exit_status,
                    int *complete);

/* Without waiting: 1 while the recorder runs, 0 once it has exited (it is
 * then reaped, and perfmonger_exit_status() says how). */
int perfmonger_running(perfmonger_recording *rec);

/* The last error's message ("" when none); valid until the next call. */
const char *perfmonger_error(const perfmonger_recording *rec);

/* From the ready line: the recorder's pid, the output path (absolute) and
 * the start time (RFC 3339, UTC). 0 / NULL before a successful start. */
pid_t perfmonger_pid(const perfmonger_recording *rec);
const char *perfmonger_output(const perfmonger_recording *rec);
const char *perfmonger_start_time(const perfmonger_recording *rec);

/* The recorder's exit status once it has exited (as for perfmonger_stop),
 * else -1. */
int perfmonger_exit_status(const perfmonger_recording *rec);

/* Stops a recording still running (as perfmonger_stop) and frees the
 * handle. NULL is allowed. */
void perfmonger_free(perfmonger_recording *rec);

#ifdef __cplusplus
}
#endif

#endif /* PERFMONGER_EMBED_H */

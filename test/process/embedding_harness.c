/* The C recipe of seeds/embedding.md §7, made correct whatever numbers
 * pipe() returns.
 *
 * Usage: embedding_harness PERFMONGER OUT_PATH META_KV
 *
 * Runs `PERFMONGER record -l OUT_PATH -i 0.1 --ready-fd 3 --stop-fd 4
 * --meta META_KV`, prints the ready line it read to stdout, does some
 * trivial work, closes the stop pipe, waits, and exits with the child's
 * exit status (125 on a local error, 124 if the child died of a signal).
 *
 * The recipe's trap (DESIGN.md §4): with only stdio open, pipe() returns
 * fds 3-6, and closing the originals after dup2 would close the fds just
 * placed on 3 and 4. So every pipe end is first moved to fd 10 or above
 * (CLOEXEC), where it can never be a dup2 target. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum { kLocalError = 125, kKilled = 124, kAbove = 10 };

/* pipe() whose ends are both >= kAbove and close-on-exec. */
static int high_pipe(int fds[2]) {
  int raw[2];
  if (pipe(raw) != 0) return -1;
  for (int i = 0; i < 2; i++) {
    fds[i] = fcntl(raw[i], F_DUPFD_CLOEXEC, kAbove);
    close(raw[i]);
    if (fds[i] < 0) return -1;
  }
  return 0;
}

/* Reads up to and including the first newline (or to EOF). */
static ssize_t read_line(int fd, char *buf, size_t size) {
  size_t len = 0;
  while (len + 1 < size) {
    ssize_t n = read(fd, buf + len, size - 1 - len);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return -1;
    if (n == 0) break;
    len += (size_t)n;
    if (memchr(buf + len - n, '\n', (size_t)n)) break;
  }
  buf[len] = '\0';
  return (ssize_t)len;
}

static int record_bracketed(const char *perfmonger, const char *out_path,
                            const char *meta_kv) {
  int ready[2], stop[2];
  if (high_pipe(ready) != 0 || high_pipe(stop) != 0) return -1;

  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    /* The targets 3 and 4 are below kAbove: no source is clobbered, and
     * dup2 clears CLOEXEC on the copies only. */
    if (dup2(ready[1], 3) < 0 || dup2(stop[0], 4) < 0) _exit(126);
    close(ready[0]); close(ready[1]);
    close(stop[0]);  close(stop[1]);
    execl(perfmonger, "perfmonger", "record", "-l", out_path, "-i", "0.1",
          "--ready-fd", "3", "--stop-fd", "4", "--meta", meta_kv,
          (char *)NULL);
    _exit(127);
  }

  close(ready[1]); /* the child is the only writer of the ready pipe */
  close(stop[0]);  /* the child is the only reader of the stop pipe */

  char line[512];
  ssize_t n = read_line(ready[0], line, sizeof line);
  close(ready[0]);
  if (n > 0) {
    fputs(line, stdout);
    fflush(stdout);
  }

  /* ---- the work being measured ---- */
  volatile unsigned long sum = 0;
  for (unsigned long i = 0; i < 1000000; i++) sum += i ^ (sum >> 3);

  close(stop[1]); /* EOF on the child's --stop-fd: a clean stop */
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  if (n <= 0) {
    fprintf(stderr, "embedding_harness: no ready line\n");
    return WIFEXITED(status) && WEXITSTATUS(status) != 0 ? WEXITSTATUS(status) : -1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -2;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: embedding_harness PERFMONGER OUT_PATH META_KV\n");
    return 2;
  }
  int rc = record_bracketed(argv[1], argv[2], argv[3]);
  if (rc == -1) perror("embedding_harness");
  return rc == -1 ? kLocalError : rc == -2 ? kKilled : rc;
}

/* Real load on command, for summary --stats's tests: one letter a line on
 * stdin, and its letter back on fd 3 once the load is done (or held), so
 * that the test brackets each peak with samples and knows when it was.
 *   c   burn 0.5 s of this process's own CPU time (a spin, no sleep)
 *   m   allocate 512 MiB and touch every page: held until
 *   f   it is freed
 *   w   write 32 MiB to FILE (argv[1]) with O_DIRECT, 1 MiB a write,
 *       then fsync; 'x' instead when the file system refuses O_DIRECT
 * Any other letter comes straight back: a handshake, once started.
 * EOF on stdin ends it. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double CpuSeconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void Burn(void) {
  double until = CpuSeconds() + 0.5;
  volatile unsigned long n = 0;
  while (CpuSeconds() < until)
    for (int i = 0; i < 100000; ++i) n = n + 1;
}

static char Write(const char* path) {
  enum { kChunk = 1 << 20 };
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_DIRECT, 0600);
  void* buf = NULL;
  if (fd < 0 || posix_memalign(&buf, 4096, kChunk) != 0) return 'x';
  memset(buf, 7, kChunk);
  for (int i = 0; i < 32; ++i)
    if (write(fd, buf, kChunk) != kChunk) return 'x';
  fsync(fd);
  close(fd);
  free(buf);
  return 'w';
}

int main(int argc, char** argv) {
  const size_t kHeld = (size_t)512 << 20;
  char* held = NULL;
  char line[16];
  while (fgets(line, sizeof line, stdin)) {
    char reply = line[0];
    if (line[0] == 'c') {
      Burn();
    } else if (line[0] == 'm') {
      held = malloc(kHeld);
      if (held == NULL) return 1;
      for (size_t i = 0; i < kHeld; i += 4096) held[i] = 1;
    } else if (line[0] == 'f') {
      free(held);
      held = NULL;
    } else if (line[0] == 'w') {
      reply = argc > 1 ? Write(argv[1]) : 'x';
    }
    char out[2] = {reply, '\n'};
    if (write(3, out, 2) != 2) return 1;
  }
  return 0;
}

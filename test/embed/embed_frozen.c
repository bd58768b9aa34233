/* A client built against perfmonger-embed 1.0's header, frozen in
 * test/embed/frozen/1.0 (its options struct before any field was added),
 * run against this library: a program built then keeps working.
 * Usage: embed_frozen PERFMONGER DIR; prints the recording's path. */
#include <stdio.h>
#include <unistd.h>

#include <perfmonger/embed.h>

int main(int argc, char **argv) {
  if (argc != 3) return 2;
  char out[4096];
  snprintf(out, sizeof out, "%s/frozen.pgr", argv[2]);
  struct perfmonger_options opt = PERFMONGER_OPTIONS_INIT;
  opt.output = out;
  opt.interval = "100ms";
  opt.perfmonger = argv[1];
  opt.record_intr = 1;
  opt.no_net = 1;
  opt.record_caller = 1;
  perfmonger_recording *rec = perfmonger_new();
  if (perfmonger_start(rec, &opt) != 0) {
    fprintf(stderr, "start: %s\n", perfmonger_error(rec));
    return 1;
  }
  if (perfmonger_mark(rec, "built-with-1.0") != 0) return 1;
  int status = 0, complete = 0;
  if (perfmonger_stop(rec, &status, &complete) != 0 || !complete) {
    fprintf(stderr, "stop: %s\n", perfmonger_error(rec));
    return 1;
  }
  perfmonger_free(rec);
  printf("%s %d\n", out, (int)getpid());
  return 0;
}

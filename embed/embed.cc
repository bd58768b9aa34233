// perfmonger-embed: the C API of include/perfmonger/embed.h, each entry
// point a thin wrapper over the steps in handle.hh.
#include <errno.h>
#include <poll.h>

#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <new>
#include <string>

#include "common/clock.hh"
#include "common/deadline.hh"
#include "embed/handle.hh"

int perfmonger_recording::Fail(int err, const char* format, ...) {
  char buf[1024];
  va_list args;
  va_start(args, format);
  vsnprintf(buf, sizeof buf, format, args);
  va_end(args);
  error = buf;
  return -err;
}

int64_t perfmonger_recording::Deadline() const {
  return pm::NowMonoNs() + int64_t{timeout_ms} * 1'000'000;
}

namespace {

int Command(perfmonger_recording* rec, const char* line, pm::embed::Reply* reply = nullptr) {
  if (!rec) return -EINVAL;
  if (!rec->started) return rec->Fail(ESRCH, "not started");
  pm::embed::Reply ignored;
  return pm::embed::Command(*rec, line, reply ? reply : &ignored);
}

}  // namespace

extern "C" {

void perfmonger_options_init(struct perfmonger_options* options, size_t size) {
  if (!options || size < sizeof options->size) return;
  std::memset(options, 0, size);
  options->size = size;
}

perfmonger_recording* perfmonger_new(void) { return new (std::nothrow) perfmonger_recording; }

int perfmonger_start(perfmonger_recording* rec, const struct perfmonger_options* o) {
  return rec ? pm::embed::Start(*rec, o) : -EINVAL;
}

int perfmonger_pause(perfmonger_recording* rec) { return Command(rec, "pause\n"); }
int perfmonger_resume(perfmonger_recording* rec) { return Command(rec, "resume\n"); }
int perfmonger_sample(perfmonger_recording* rec) { return Command(rec, "sample\n"); }
int perfmonger_ping(perfmonger_recording* rec) { return Command(rec, "ping\n"); }

int perfmonger_mark(perfmonger_recording* rec, const char* label) {
  if (!rec) return -EINVAL;
  size_t len = label ? strlen(label) : 0;
  bool printable = len >= 1 && len <= 128;
  for (size_t i = 0; printable && i < len; ++i)
    printable = label[i] >= ' ' && label[i] < 127;
  if (!printable) return rec->Fail(EINVAL, "a mark label is 1 to 128 printable ASCII bytes");
  return Command(rec, (std::string("mark ") + label + "\n").c_str());
}

int perfmonger_status(perfmonger_recording* rec, struct perfmonger_status* status) {
  if (!rec) return -EINVAL;
  if (!status || status->size < sizeof *status)
    return rec->Fail(EINVAL, "status->size is too small: initialise it with PERFMONGER_STATUS_INIT");
  pm::embed::Reply reply;
  if (int err = Command(rec, "status\n", &reply)) return err;
  std::memset(reinterpret_cast<char*>(status) + sizeof status->size, 0,
              status->size - sizeof status->size);  // fields beyond ours read as zero
  status->state = reply.state == "paused" ? PERFMONGER_PAUSED : PERFMONGER_RECORDING;
  status->samples = reply.samples;
  status->missed_ticks = reply.missed_ticks;
  status->bytes = reply.bytes_out;
  return 0;
}

int perfmonger_set_timeout(perfmonger_recording* rec, int timeout_ms) {
  if (!rec) return -EINVAL;
  if (timeout_ms < 0) return rec->Fail(EINVAL, "a timeout of %d ms", timeout_ms);
  rec->timeout_ms = pm::embed::TimeoutOrDefault(timeout_ms);
  return 0;
}

int perfmonger_stop(perfmonger_recording* rec, int* exit_status, int* complete) {
  if (!rec) return -EINVAL;
  if (!rec->started) return rec->Fail(ESRCH, "not started");
  return pm::embed::Stop(*rec, exit_status, complete);
}

int perfmonger_running(perfmonger_recording* rec) {
  if (!rec || !rec->started || rec->exited) return 0;
  return pm::embed::WaitExit(*rec, 0) ? 0 : 1;  // a deadline already past: no wait
}

const char* perfmonger_error(const perfmonger_recording* rec) { return rec ? rec->error.c_str() : ""; }
pid_t perfmonger_pid(const perfmonger_recording* rec) { return rec && rec->started ? rec->pid : 0; }
const char* perfmonger_output(const perfmonger_recording* rec) {
  return rec && rec->started ? rec->output.c_str() : nullptr;
}
const char* perfmonger_start_time(const perfmonger_recording* rec) {
  return rec && rec->started ? rec->start_time.c_str() : nullptr;
}
int perfmonger_exit_status(const perfmonger_recording* rec) {
  return rec && rec->exited && rec->status_known ? rec->exit_status : -1;
}

void perfmonger_free(perfmonger_recording* rec) {
  if (!rec) return;
  pm::embed::End(*rec);
  delete rec;
}

}  // extern "C"

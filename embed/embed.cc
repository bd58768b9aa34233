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

int perfmonger_name_pid(perfmonger_recording* rec, pid_t pid) {
  if (!rec) return -EINVAL;
  if (pid <= 0) return rec->Fail(EINVAL, "a process id is above 0");
  return Command(rec, ("pid " + std::to_string(pid) + "\n").c_str());
}

namespace {

int CheckLabel(perfmonger_recording* rec, const char* label) {
  size_t len = label ? strlen(label) : 0;
  bool printable = len >= 1 && len <= 128;
  for (size_t i = 0; printable && i < len; ++i)
    printable = label[i] >= ' ' && label[i] < 127;
  if (!printable) return rec->Fail(EINVAL, "a mark label is 1 to 128 printable ASCII bytes");
  return 0;
}

}  // namespace

int perfmonger_mark(perfmonger_recording* rec, const char* label) {
  if (!rec) return -EINVAL;
  if (int err = CheckLabel(rec, label)) return err;
  return Command(rec, (std::string("mark ") + label + "\n").c_str());
}

namespace {

// The reply's cost into *cost, zeroing the fields beyond ours.
int CopyCost(perfmonger_recording* rec, const pm::embed::Reply& reply, perfmonger_cost* cost) {
  if (!reply.has_cost) return rec->Fail(ENODATA, "the reply carries no cost (an older perfmonger?)");
  std::memset(reinterpret_cast<char*>(cost) + sizeof cost->size, 0, cost->size - sizeof cost->size);
  uint64_t* fields[] = {&cost->cpu_ns, &cost->run_wait_ns, &cost->read_bytes, &cost->write_bytes,
                        &cost->minflt, &cost->majflt,      &cost->ctxsw,      &cost->processes};
  static_assert(sizeof fields / sizeof fields[0] == sizeof reply.cost / sizeof reply.cost[0]);
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; ++i) *fields[i] = reply.cost[i];
  return 0;
}

int CheckCost(perfmonger_recording* rec, const perfmonger_cost* cost) {
  if (!cost || cost->size < sizeof *cost)
    return rec->Fail(EINVAL, "cost->size is too small: initialise it with PERFMONGER_COST_INIT");
  return 0;
}

}  // namespace

int perfmonger_mark_cost(perfmonger_recording* rec, const char* label, struct perfmonger_cost* cost) {
  if (!rec) return -EINVAL;
  if (int err = CheckCost(rec, cost)) return err;
  if (int err = CheckLabel(rec, label)) return err;
  pm::embed::Reply reply;
  if (int err = Command(rec, (std::string("mark ") + label + "\n").c_str(), &reply)) return err;
  return CopyCost(rec, reply, cost);
}

int perfmonger_stop_cost(perfmonger_recording* rec, struct perfmonger_cost* cost) {
  if (!rec) return -EINVAL;
  if (int err = CheckCost(rec, cost)) return err;
  if (!rec->stop_reply) return rec->Fail(ENODATA, "no acknowledged stop: no last phase's cost");
  return CopyCost(rec, *rec->stop_reply, cost);
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

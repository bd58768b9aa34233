#include "common/sched_hint.hh"

#include <linux/sched/types.h>
#include <linux/sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>

namespace pm {

namespace {
constexpr unsigned long long kSliceNs = 100'000;  // the kernel's minimum
}  // namespace

void RequestShortSlices() noexcept {
  struct sched_attr attr = {};
  attr.size = sizeof attr;
  attr.sched_policy = SCHED_NORMAL;
  errno = 0;
  int nice = getpriority(PRIO_PROCESS, 0);
  if (errno != 0) return;
  attr.sched_nice = nice;
  attr.sched_runtime = kSliceNs;
  syscall(SYS_sched_setattr, 0, &attr, 0);
}

}  // namespace pm

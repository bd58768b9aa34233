// A hint to the kernel's fair scheduler about how the recorder runs.
#pragma once

namespace pm {

// Asks for a short time slice (Linux 6.12+, EEVDF: sched_attr.sched_runtime
// on a SCHED_OTHER task). A wake-up of the recorder needs far less than
// 100 µs of CPU, and a short requested slice earns an earlier virtual
// deadline, so a tick that wakes behind a busy task runs sooner: less
// interval jitter on a loaded machine. Unprivileged, nice value kept;
// older kernels ignore it, and any failure is ignored too.
void RequestShortSlices() noexcept;

}  // namespace pm

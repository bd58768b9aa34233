// `record --status` and `record --kill`: the running background session.
#pragma once

#include <cstdint>

namespace pm {

// 0 and a report on stdout when a session runs; 1 and
// "[ERROR] No perfmonger record session is running." when none does.
int SessionStatus(bool json);

// Stops the session (SIGINT, through a pidfd that proves it is still the
// session's process) and waits until it has exited and released the lock:
// 0 only then. 1 with PerfMonger's messages otherwise.
int SessionKill(int64_t timeout_ns);

}  // namespace pm

// `record --status` and `record --kill`: the running background session,
// ours or PerfMonger 1.0's (daemon/session_files.hh). Both remove a stale
// pidfile they find, with a note on stderr.
#pragma once

#include <cstdint>

namespace pm {

// 0 and a report on stdout when a session runs; 1 and
// "[ERROR] No perfmonger record session is running." when none does.
int SessionStatus(bool json);

// Stops the session (SIGINT, through a pidfd that proves it is still the
// session's process), waits until it has exited and, for ours, released
// the lock, then until its parent has reaped it: 0 then. If it is not
// reaped by the deadline, 0 with a note naming the parent. 1 with
// PerfMonger's messages when there is no session or it did not stop.
int SessionKill(int64_t timeout_ns);

}  // namespace pm

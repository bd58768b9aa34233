// The process block of live's table and play --table (a recording made
// with --record-procs): under an interval's row, the `n` processes of its
// "procs" line that used the most CPU, busiest first (ties: lower pid
// first), as top and atop list them:
//
//     PID USER      %CPU  READ/s WRITE/s    RSS COMMAND
//    4242 alice     98.3    4.0K       0  12.3M stress
//
// %CPU: of one core, over the procs line's own interval (its "since" to
// the sample), to 0.1; READ/s, WRITE/s (storage I/O, "-" where
// unreadable) and RSS scaled as the table's cells are; USER from
// `users`; COMMAND the kernel's comm. Lines are cut at the style's width.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "common/user_names.hh"
#include "playback/reading/proc_table_event.hh"
#include "playback/outputs/table_text.hh"

namespace pm {

// Appends the header and up to `n` rows (nothing for a line without
// rows, or n == 0); returns the lines appended.
size_t AppendProcTopRows(std::string& out, const ProcTableEvent& e, int64_t mono_ns, size_t n,
                         const UserNames& users, const TableStyle& style);

}  // namespace pm

// What the scans of every process share (process_scan.hh, the everyone
// scan at marks; process_table.hh, the table of active processes each
// sample): listing a /proc directory's numeric entries, reading a small
// /proc file whole, and a process's CPU clock.
#pragma once

#include <sys/stat.h>

#include <cstdint>
#include <string>
#include <vector>

namespace pm {

// The numeric entries of directory `dirfd` (/proc: pids; /proc/PID/task:
// tids), in the order it lists them, into `out` (cleared first). Rewinds
// the directory first. Throws SystemError when it cannot be listed.
void ListPids(int dirfd, std::vector<uint32_t>& out);

// `name` below `dirfd` into `text`, to EOF, at most `max_bytes`; false if
// it cannot be opened or read, or is longer. `owner`, if given, gets the
// file's fstat.
bool SlurpAt(int dirfd, const char* name, std::string& text, size_t max_bytes,
             struct stat* owner = nullptr);

// The process CPU clock of `pid` (clock_getcpuclockid(3): every thread,
// exited ones included), in ns, or -1 (gone, a zombie).
int64_t ProcessClockNs(uint32_t pid);

}  // namespace pm

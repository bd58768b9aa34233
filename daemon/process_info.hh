// What /proc says about another process, for the session files: its
// identity (start time), its owner, its command line, its executable, its
// parent.
// Each returns nullopt (or empty) when the process does not exist or the
// file cannot be read: the callers treat that as "not the process we
// meant", never as an error.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/small_file.hh"

namespace pm {

// /proc/PID/stat field 22 (clock ticks after boot): with the pid, it names
// one process for the life of the system, so a recycled pid is told apart.
std::optional<uint64_t> ProcessStartTime(pid_t pid);

// /proc/PID/stat field 4.
std::optional<pid_t> ParentPid(pid_t pid);

// The real uid on the "Uid:" line of /proc/PID/status (its first field).
std::optional<uid_t> ProcessRealUid(pid_t pid);

// True while the process exists and has exited (a zombie awaiting reaping).
bool IsZombie(pid_t pid);

// /proc/PID/cmdline split at its NULs (argv as the process holds it).
std::vector<std::string> ProcessArgs(pid_t pid);

// readlink /proc/PID/exe ("" when unreadable).
std::string ProcessExecutable(pid_t pid);

// True when `pid` runs the same executable file as this process.
bool RunsOurExecutable(pid_t pid);

// A process start time (ProcessStartTime) as CLOCK_REALTIME ns, through
// the boot time in /proc/stat; nullopt if unknown.
std::optional<int64_t> StartTimeRealtimeNs(uint64_t start_ticks);

// In a PerfMonger recorder's argv (`perfmonger record ...` or
// `perfmonger-recorder ...`, the program named by path or base name, also
// behind an interpreter: `ruby /usr/bin/perfmonger record ...`), the index
// of the program; nullopt for any other argv.
std::optional<size_t> PerfmongerRecorderProgram(const std::vector<std::string>& argv);

}  // namespace pm

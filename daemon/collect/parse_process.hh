// /proc/PID/stat and /proc/PID/io: one process's CPU times, size and I/O.
// Pure: text in, struct out.
//
//   /proc/PID/stat  "1234 (comm) S 1 ... minflt . majflt . utime stime cutime cstime ...
//                   num_threads ... rss ..." (proc(5) fields 4, 10, 12, 14-17, 20, 22, 24; comm may hold spaces,
//                   parentheses and newlines, so fields are counted from
//                   its last ')')
//   /proc/PID/task/TID/schedstat  "run_ns wait_ns timeslices": one thread's
//                   time on a CPU and runnable but waiting for one, in ns
//                   (Documentation/scheduler/sched-stats.rst)
//   /proc/PID/io    "rchar: N" lines: rchar wchar syscr syscw read_bytes
//                   write_bytes cancelled_write_bytes
#pragma once

#include <cstdint>
#include <string_view>

namespace pm {

struct ProcStat {
  uint64_t utime = 0, stime = 0, cutime = 0, cstime = 0;  // clock ticks
  uint64_t num_threads = 0;
  uint64_t rss_pages = 0;
  uint64_t ppid = 0;
  uint64_t minflt = 0, majflt = 0;  // page faults, every thread's
  uint64_t start_ticks = 0;  // since boot: with the pid, who it is
};

struct ProcIo {
  uint64_t rchar = 0, wchar = 0, syscr = 0, syscw = 0, read_bytes = 0, write_bytes = 0;
};

// Throws FormatError "source:1: ..." for a line too short or a field that
// is not a number (cutime and cstime are signed in the kernel: a negative
// one reads as 0).
void ParseProcStat(std::string_view text, ProcStat& out,
                   std::string_view source = "/proc/PID/stat");

// The command name between the first '(' and the last ')' of a
// /proc/PID/stat text ("" without them): the kernel's comm, bytes that may
// hold spaces, parentheses and newlines.
std::string_view ProcStatComm(std::string_view text);

struct Schedstat {
  uint64_t run_ns = 0, wait_ns = 0;
  uint64_t slices = 0;  // times switched onto a CPU (0 when not printed)
};

// Throws FormatError "source:1: ..." unless the text starts with two
// numbers; a third is the count of timeslices.
void ParseSchedstat(std::string_view text, Schedstat& out,
                    std::string_view source = "/proc/PID/schedstat");

// Keys it does not record are skipped; a recorded key without a number is
// an error; a missing one is 0. Throws FormatError "source:line: ...".
void ParseProcIo(std::string_view text, ProcIo& out, std::string_view source = "/proc/PID/io");

}  // namespace pm

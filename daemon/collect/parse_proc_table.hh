// The process table's (process_table.hh) texts beyond /proc/PID/stat,
// io and schedstat (parse_process.hh). Pure: text in, view or value out.
//
//   /proc/PID/cmdline  the arguments, each ended by a NUL (empty for a
//                      kernel thread or a zombie)
//   /proc/PID/cgroup   "0::/path" (v2) and/or "N:ctrl,ctrl:/path" (v1)
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace pm {

// The start of a command line, at most `max_bytes`: the arguments joined
// by spaces (the NULs between them), trailing NULs dropped. Bytes are
// kept as they are (the JSON writer escapes them).
std::string CmdlineStart(std::string_view text, size_t max_bytes);

// A process's cgroup: the v2 path ("0::"), else the v1 path of the
// hierarchy holding the cpu controller ("3:cpu,cpuacct:/a" -> "/a"), else "".
std::string_view CgroupPath(std::string_view text);

}  // namespace pm

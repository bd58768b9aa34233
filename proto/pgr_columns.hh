// The column names of a recording's counter arrays, in recording order:
// what the recorder declares in the header (daemon/collect) and what the
// reader matches by name (playback/native_header.cc). Part of the format.
#pragma once

#include <array>
#include <string_view>

namespace pm {

// A `cpu` line of /proc/stat, in jiffies.
inline constexpr std::array<std::string_view, 10> kCpuFields = {
    "user", "nice", "system", "idle", "iowait",
    "irq", "softirq", "steal", "guest", "guest_nice"};

// The machine's CPU time finer than /proc/stat's ticks (member
// "cpu_fine", rows as "cpu": "all", then each core), in ns: busy (running
// anything but the idle task), its user (nice and guest included), nice
// and system (irq and softirq included) parts, idle, and the time tasks
// waited runnable. A recording declares those its sources gave and names
// each source in the header (pgr(5)).
inline constexpr std::array<std::string_view, 6> kCpuFineFields = {
    "busy_ns", "user_ns", "nice_ns", "system_ns", "idle_ns", "run_delay_ns"};
namespace cpu_fine_field {
enum : size_t { kBusy, kUser, kNice, kSystem, kIdle, kRunDelay };
}  // namespace cpu_fine_field
static_assert(kCpuFineFields[cpu_fine_field::kRunDelay] == "run_delay_ns");

inline constexpr std::array<std::string_view, 2> kProcFields = {"ctxt", "processes"};

// /proc/diskstats per device: the 11 counters of every kernel, then the
// discards of 4.18 and the flushes of 5.5. A recording declares only the
// ones its kernel printed (kDiskBaseFields, kDiskDiscardFields or all), so
// a reader tells "never measured" from zero.
inline constexpr std::array<std::string_view, 17> kDiskFields = {
    "reads", "read_merges", "read_sectors", "read_ms", "writes", "write_merges",
    "write_sectors", "write_ms", "in_flight", "io_ms", "weighted_io_ms",
    "discards", "discard_merges", "discard_sectors", "discard_ms", "flushes", "flush_ms"};
inline constexpr size_t kDiskBaseFields = 11;
inline constexpr size_t kDiskDiscardFields = 15;

// /proc/net/dev per interface: 8 receive then 8 transmit counters.
inline constexpr std::array<std::string_view, 16> kNetFields = {
    "rx_bytes", "rx_packets", "rx_errs", "rx_drop", "rx_fifo", "rx_frame",
    "rx_compressed", "rx_multicast", "tx_bytes", "tx_packets", "tx_errs",
    "tx_drop", "tx_fifo", "tx_colls", "tx_carrier", "tx_compressed"};

// /proc/meminfo keys: PerfMonger's 29 plus MemAvailable (kB; HugePages_*
// are counts).
inline constexpr std::array<std::string_view, 30> kMemFields = {
    "MemTotal", "MemFree", "MemAvailable", "Buffers", "Cached",
    "SwapCached", "Active", "Inactive", "SwapTotal", "SwapFree",
    "Dirty", "Writeback", "AnonPages", "Mapped", "Shmem",
    "Slab", "SReclaimable", "SUnreclaim", "KernelStack", "PageTables",
    "NFS_Unstable", "Bounce", "CommitLimit", "Committed_AS", "AnonHugePages",
    "HugePages_Total", "HugePages_Free", "HugePages_Rsvd", "HugePages_Surp",
    "Hugepagesize"};

// /proc/pressure/{cpu,io,memory,irq}: the cumulative stall time of one
// line ("some" or "full"). Rows are "RESOURCE.LINE" ("cpu.some",
// "irq.full"), one per line the kernel printed at the start.
inline constexpr std::array<std::string_view, 1> kPressureFields = {"total_us"};

// /proc/loadavg's averages ×100 (exact: the kernel prints two decimals)
// and runnable/threads, then /proc/stat's procs_running and
// procs_blocked: all levels.
inline constexpr std::array<std::string_view, 7> kLoadFields = {
    "load1_x100", "load5_x100", "load15_x100", "runnable", "threads",
    "procs_running", "procs_blocked"};

// /proc/vmstat's paging and swapping counters, as sar -B and -W read them:
// pgpgin/pgpgout in kB, the others in pages or events; the pgscan_* and
// pgsteal_* of kernels before 4.8 (per zone: pgscan_kswapd_normal, ...)
// are summed. A recording declares those its kernel printed (oom_kill
// since 4.13).
inline constexpr std::array<std::string_view, 12> kVmstatFields = {
    "pgpgin", "pgpgout", "pswpin", "pswpout", "pgfault", "pgmajfault", "pgfree",
    "pgscan_kswapd", "pgscan_direct", "pgsteal_kswapd", "pgsteal_direct", "oom_kill"};

// /proc/net/snmp's Tcp and Udp and /proc/net/netstat's TcpExt counters, as
// sar -n TCP,ETCP,UDP reads them, each "Proto_Name" by the name on its
// protocol's header line; Tcp_CurrEstab, a level, last. A recording
// declares those its kernel printed.
inline constexpr std::array<std::string_view, 18> kNetstatFields = {
    "Tcp_ActiveOpens", "Tcp_PassiveOpens", "Tcp_AttemptFails", "Tcp_EstabResets",
    "Tcp_InSegs", "Tcp_OutSegs", "Tcp_RetransSegs", "Tcp_InErrs", "Tcp_OutRsts",
    "Udp_InDatagrams", "Udp_OutDatagrams", "Udp_NoPorts", "Udp_InErrors",
    "Udp_RcvbufErrors", "Udp_SndbufErrors", "TcpExt_ListenOverflows", "TcpExt_ListenDrops",
    "Tcp_CurrEstab"};

// /proc/net/sockstat's socket counts, as sar -n SOCK reads them:
// "Proto_name" of its "Proto: name value ..." lines; all levels.
inline constexpr std::array<std::string_view, 6> kSockstatFields = {
    "sockets_used", "TCP_inuse", "UDP_inuse", "RAW_inuse", "FRAG_inuse", "TCP_tw"};

// One process (/proc/PID/stat and /proc/PID/io): CPU times in
// microseconds (clock ticks converted at recording), its own and its
// waited-for children's; I/O counters in bytes and calls; its CPU time
// and run-queue wait in ns (daemon/collect/thread_group_cpu.hh; older
// recordings lack them); its page faults (/proc/PID/stat minflt, majflt)
// and the times its threads were switched onto a CPU (the sum of
// /proc/PID/task/*/schedstat's third field: its context switches; older
// recordings lack these three); then two levels (kProcessCounters
// counters come first).
inline constexpr std::array<std::string_view, 17> kProcessFields = {
    "utime_us", "stime_us", "cutime_us", "cstime_us", "rchar", "wchar",
    "read_bytes", "write_bytes", "syscr", "syscw", "cpu_ns", "run_wait_ns",
    "minflt", "majflt", "ctxsw", "num_threads", "rss_kb"};
inline constexpr size_t kProcessCounters = 15;
// Indices into kProcessFields, for the writer and the reader alike.
namespace process_field {
enum : size_t { kUtime, kStime, kCutime, kCstime, kRchar, kWchar, kReadBytes, kWriteBytes,
                kSyscr, kSyscw, kCpuNs, kRunWaitNs, kMinflt, kMajflt, kCtxsw, kThreads,
                kRssKb };
}  // namespace process_field
static_assert(kProcessFields[process_field::kRssKb] == "rss_kb");

// One cgroup v2 group: cpu.stat (µs, throttling), io.stat summed over its
// devices, memory.stat's pgmajfault, its own {cpu,io,memory}.pressure
// totals (µs); then three levels: memory.current and memory.stat's anon and
// file (bytes). A file the group lacks (a controller not enabled) reads 0
// and is named in the header's "absent".
inline constexpr std::array<std::string_view, 19> kCgroupFields = {
    "usage_usec", "user_usec", "system_usec", "nr_throttled", "throttled_usec",
    "rbytes", "wbytes", "rios", "wios", "pgmajfault",
    "cpu_some_us", "cpu_full_us", "io_some_us", "io_full_us", "memory_some_us",
    "memory_full_us", "memory_current", "anon", "file"};
inline constexpr size_t kCgroupCounters = 16;
// One group's io.stat line for one whole disk (row "PATH:DEV"; a disk the
// group has not used yet reads 0).
inline constexpr std::array<std::string_view, 4> kCgroupIoFields = {"rbytes", "wbytes", "rios",
                                                                    "wios"};
// Indices into kCgroupFields, for the writer and the reader alike.
namespace cgroup_field {
enum : size_t { kUsage, kUser, kSystem, kNrThrottled, kThrottled, kRbytes, kWbytes, kRios,
                kWios, kMajflt, kCpuSome, kCpuFull, kIoSome, kIoFull, kMemSome, kMemFull,
                kMemCurrent, kAnon, kFile };
}  // namespace cgroup_field
static_assert(kCgroupFields[cgroup_field::kMajflt] == "pgmajfault");
static_assert(kCgroupFields[cgroup_field::kFile] == "file");

}  // namespace pm

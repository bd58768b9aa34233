#include "daemon/collect/process_table.hh"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stdexcept>

#include "common/clock.hh"
#include "common/io.hh"
#include "daemon/collect/collector.hh"
#include "daemon/collect/parse_proc_table.hh"
#include "daemon/collect/pid_dir.hh"
#include "daemon/collect/thread_group_cpu.hh"
#include "proto/json.hh"

namespace pm {
namespace {

constexpr size_t kMaxFileBytes = 64 * 1024;  // stat, io, schedstat, cgroup: far less
constexpr int64_t kShareOfInterval = 10;     // a scan may take 1/10 of an interval

uint64_t Gain(uint64_t now, uint64_t was) { return now > was ? now - was : 0; }

void Comma(std::string& out) { out.push_back(','); }

}  // namespace

ProcessTable::ProcessTable(int root_dirfd, int64_t interval_ns, int64_t mono_ns)
    : proc_(OpenAt(root_dirfd, "proc", O_RDONLY | O_DIRECTORY)),
      real_root_(IsRealRoot(root_dirfd)),
      tick_us_(1'000'000 / static_cast<uint64_t>(sysconf(_SC_CLK_TCK))),
      page_kb_(static_cast<uint64_t>(sysconf(_SC_PAGESIZE)) / 1024),
      since_mono_(mono_ns) {
  Scan(nullptr);  // every process read: the first scan costs more than the others
  const int64_t begin = NowMonoNs();
  Scan(nullptr);
  scan_ns_ = NowMonoNs() - begin;
  const int64_t budget = interval_ns / kShareOfInterval;
  if (budget > 0 && scan_ns_ > budget) every_ = static_cast<uint64_t>((scan_ns_ + budget - 1) / budget);
}

void ProcessTable::Describe(std::string& out) const {
  AppendMember(out, "proctable");
  out.append("{\"fields\":");
  AppendStringArray(out, kProcTableFields);
  out.append(",\"brief\":[\"utime_us\",\"stime_us\"],\"every\":");
  AppendUint(out, every_);
  out.append(",\"scan_ns\":");
  AppendInt(out, scan_ns_);
  out.append(",\"io\":").append(geteuid() == 0 ? "\"all\"" : "\"own\"");
  out.append(",\"sources\":[{\"fields\":[\"cpu_ns\"],\"file\":")
      .append(real_root_ ? "\"process CPU clock\"" : "\"/proc/PID/schedstat\"")
      .append(",\"resolution_ns\":1},{\"fields\":[\"utime_us\",\"stime_us\"],"
              "\"file\":\"/proc/PID/stat\",\"resolution_ns\":");
  AppendUint(out, tick_us_ * 1000);
  out.append("},{\"fields\":[\"run_wait_ns\"],\"file\":\"/proc/PID/task/*/schedstat\","
             "\"resolution_ns\":1},{\"fields\":[\"read_bytes\",\"write_bytes\"],"
             "\"file\":\"/proc/PID/io\",\"resolution_ns\":0}]}");
}

std::string ProcessTable::Line(int64_t t_ns, int64_t mono_ns, bool tick) {
  if (!baseline_ && tick && ++due_ < every_) return {};
  due_ = 0;
  if (baseline_) {
    Scan(nullptr);
    baseline_ = false;
    since_mono_ = mono_ns;
    return {};
  }
  std::string out;
  JsonObjectWriter event(out);
  event.Str("event", "procs").Int("t", t_ns).Int("mono", mono_ns).Int("since", since_mono_);
  std::string& rows = event.Key("rows");
  rows.push_back('[');
  brief_ = {};
  Scan(&rows);
  rows.push_back(']');
  event.Key("exited").append("[").append(exited_).append("]");
  std::string& brief = event.Key("brief");
  brief.push_back('[');
  AppendUint(brief, Gain(brief_.children_user, brief_.gone_user) * tick_us_), Comma(brief);
  AppendUint(brief, Gain(brief_.children_system, brief_.gone_system) * tick_us_);
  brief.push_back(']');
  event.Close();
  out.push_back('\n');
  since_mono_ = mono_ns;
  return out;
}

// Every process once; `rows` null: a baseline (nothing written, nothing
// counted as new).
void ProcessTable::Scan(std::string* rows) {
  ++gen_;
  exited_.clear();
  ListPids(proc_.Get(), pids_);
  for (uint32_t pid : pids_) Visit(pid, rows);
  Depart(rows ? &exited_ : nullptr);
}

// The processes not seen in this scan are gone.
void ProcessTable::Depart(std::string* exited) {
  for (auto it = known_.begin(); it != known_.end();) {
    if (it->second.gen == gen_) {
      ++it;
      continue;
    }
    Exit(it->first, it->second, exited);
    it = known_.erase(it);
  }
}

void ProcessTable::Exit(uint32_t pid, const Known& was, std::string* exited) {
  if (!exited) return;
  if (!exited->empty()) Comma(*exited);
  AppendUint(*exited, pid);
  brief_.gone_user += was.utime + was.cutime;
  brief_.gone_system += was.stime + was.cstime;
}

// One process: nothing read when its CPU clock has not moved (idle) or
// cannot be read (a zombie, until reaped).
void ProcessTable::Visit(uint32_t pid, std::string* rows) {
  const int64_t clock_ns = real_root_ ? ProcessClockNs(pid) : -1;
  auto it = known_.find(pid);
  Known* was = it == known_.end() ? nullptr : &it->second;
  if (real_root_ && (clock_ns < 0 || (was && clock_ns == was->cpu_ns))) {
    if (was) was->gen = gen_;
    return;
  }
  if (!ReadStat(pid)) return;  // gone meanwhile
  if (was && was->start != stat_.start_ticks) {  // the pid was reused
    Exit(pid, *was, rows ? &exited_ : nullptr);
    known_.erase(it);
    was = nullptr;
  }
  Known now = Read(pid, clock_ns);
  if (was && now.cpu_ns == was->cpu_ns) {  // below a fake root: idle
    was->gen = gen_;
    return;
  }
  if (rows) {
    Count(was, now);
    if (rows->back() != '[') Comma(*rows);
    AppendRow(*rows, pid, was, now);
  }
  known_[pid] = now;
}

bool ProcessTable::ReadStat(uint32_t pid) {
  struct stat owner;
  const std::string name = std::to_string(pid) + "/stat";
  if (!SlurpAt(proc_.Get(), name.c_str(), text_, kMaxFileBytes, &owner) || text_.empty())
    return false;
  try {
    ParseProcStat(text_, stat_);
  } catch (const std::runtime_error&) {
    return false;
  }
  comm_ = ProcStatComm(text_);
  uid_ = owner.st_uid;
  return true;
}

// The rest of an active process, after ReadStat().
ProcessTable::Known ProcessTable::Read(uint32_t pid, int64_t clock_ns) {
  Known k;
  k.start = stat_.start_ticks, k.gen = gen_;
  k.utime = stat_.utime, k.stime = stat_.stime, k.cutime = stat_.cutime, k.cstime = stat_.cstime;
  const uint64_t threads = stat_.num_threads;
  Schedstat leader;
  const std::string dir = std::to_string(pid);
  if (SlurpAt(proc_.Get(), (dir + "/schedstat").c_str(), text_, kMaxFileBytes)) try {
      ParseSchedstat(text_, leader);
    } catch (const std::runtime_error&) {
    }
  k.cpu_ns = clock_ns >= 0 ? clock_ns : static_cast<int64_t>(leader.run_ns);
  k.wait_ns = threads > 1 ? ThreadsWaitNs(dir) : leader.wait_ns;
  k.io = SlurpAt(proc_.Get(), (dir + "/io").c_str(), text_, kMaxFileBytes);
  if (k.io) try {
      ParseProcIo(text_, io_);
      k.read_bytes = io_.read_bytes, k.write_bytes = io_.write_bytes;
    } catch (const std::runtime_error&) {
      k.io = false;
    }
  return k;
}

// The run-queue wait of every live thread (the kernel keeps no total:
// a thread that exited takes its wait along).
uint64_t ProcessTable::ThreadsWaitNs(const std::string& dir) {
  UniqueFd task;
  try {
    task = OpenAt(proc_.Get(), dir + "/task", O_RDONLY | O_DIRECTORY);
    ListPids(task.Get(), tids_);
  } catch (const std::exception&) {
    return 0;
  }
  uint64_t sum = 0;
  Schedstat one;
  for (uint32_t tid : tids_) {
    if (!SlurpAt(task.Get(), (std::to_string(tid) + "/schedstat").c_str(), text_, kMaxFileBytes))
      continue;
    try {
      ParseSchedstat(text_, one);
      sum += one.wait_ns;
    } catch (const std::runtime_error&) {
    }
  }
  return sum;
}

// A parent gains in cutime/cstime what the children it reaped had.
void ProcessTable::Count(const Known* was, const Known& now) {
  brief_.children_user += Gain(now.cutime, was ? was->cutime : 0);
  brief_.children_system += Gain(now.cstime, was ? was->cstime : 0);
}

// [pid,ppid,uid,start,new,cpu_ns,utime_us,stime_us,run_wait_ns,
//  read_bytes,write_bytes,rss_kb,threads,"comm","cmd","cgroup"]
void ProcessTable::AppendRow(std::string& out, uint32_t pid, const Known* was,
                             const Known& now) {
  const Known zero;
  const Known& before = was ? *was : zero;
  out.push_back('[');
  for (uint64_t v : {uint64_t{pid}, stat_.ppid, uint64_t{uid_}, now.start, uint64_t{!was},
                     Gain(static_cast<uint64_t>(now.cpu_ns), static_cast<uint64_t>(before.cpu_ns)),
                     Gain(now.utime, before.utime) * tick_us_,
                     Gain(now.stime, before.stime) * tick_us_, Gain(now.wait_ns, before.wait_ns)}) {
    AppendUint(out, v), Comma(out);
  }
  if (now.io && (!was || before.io)) {
    AppendUint(out, Gain(now.read_bytes, before.read_bytes)), Comma(out);
    AppendUint(out, Gain(now.write_bytes, before.write_bytes));
  } else {
    out.append("null,null");
  }
  Comma(out), AppendUint(out, stat_.rss_pages * page_kb_);
  Comma(out), AppendUint(out, stat_.num_threads), Comma(out);
  AppendIdentity(out, pid);
  out.push_back(']');
}

// "comm","cmd","cgroup": read for the rows written only.
void ProcessTable::AppendIdentity(std::string& out, uint32_t pid) {
  AppendJsonString(out, comm_), Comma(out);
  const std::string dir = std::to_string(pid);
  const bool cmd = SlurpAt(proc_.Get(), (dir + "/cmdline").c_str(), text_, kMaxFileBytes);
  AppendJsonString(out, cmd ? CmdlineStart(text_, kCmdlineBytes) : std::string()), Comma(out);
  const bool group = SlurpAt(proc_.Get(), (dir + "/cgroup").c_str(), text_, kMaxFileBytes);
  AppendJsonString(out, group ? CgroupPath(text_) : std::string_view());
}

}  // namespace pm

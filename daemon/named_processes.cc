#include "daemon/named_processes.hh"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <system_error>

#include "common/error.hh"
#include "daemon/collect/collector.hh"
#include "proto/columns/process.hh"

namespace pm {
namespace {

namespace pf = process_field;
// The columns a scan's "added" rows carry, in their order.
constexpr std::array<size_t, 7> kNamedFields = {pf::kCpuNs,      pf::kRunWaitNs, pf::kReadBytes,
                                                pf::kWriteBytes, pf::kMinflt,    pf::kMajflt,
                                                pf::kCtxsw};
// /proc/PID/stat's start time: the kernel's boot-clock ns at fork, divided
// down to USER_HZ ticks (nsec_to_clock_t: 10 ms on x86).
const int64_t kStartTickNs = 1'000'000'000 / sysconf(_SC_CLK_TCK);

// The phase and the birth as instants on the one clock the start time
// counts on, not as two ages: ages read on two clocks at two instants
// (the phase's before this process's files were read, its own after)
// differ by that delay and by a suspend, and one born a few ms after the
// mark compared as born before it and lost its start-up CPU.
// Its start time only says in which tick it was born (no exact source:
// /proc/PID/sched's se.exec_start is its last run, not its birth; taskstats'
// ac_etime needs CAP_NET_ADMIN): born in the phase start's tick, it may
// have been born inside, and counts from its birth. Counting from its
// birth one born just before overcounts less than a tick of its CPU;
// counting from its naming one born inside loses all it used until then.
bool BornInside(uint64_t start_ticks, int64_t phase_start_boot_ns) {
  return (static_cast<int64_t>(start_ticks) + 1) * kStartTickNs > phase_start_boot_ns;
}

void AppendNamedValues(std::string& out, const ProcessReader::Values& v) {
  std::array<uint64_t, kNamedFields.size()> picked;
  for (size_t i = 0; i < kNamedFields.size(); ++i) picked[i] = v[kNamedFields[i]];
  AppendCounters(out, picked);
}

}  // namespace

NamedProcesses::NamedProcesses(int root_dirfd)
    : root_(UniqueFd::Adopt(::fcntl(root_dirfd, F_DUPFD_CLOEXEC, 0))),
      real_root_(IsRealRoot(root_dirfd)) {
  if (!root_) throw SystemError("cannot duplicate the root directory fd");
}

bool NamedProcesses::Has(uint32_t pid) const {
  return std::any_of(rows_.begin(), rows_.end(), [&](const Row& r) { return r.pid == pid; });
}

std::string_view NamedProcesses::Name(uint32_t pid, int64_t phase_start_boot_ns) {
  if (Has(pid)) return "";
  Row row{pid, 0, std::nullopt, {}, {}, {}, false};
  try {
    row.files.emplace(root_.Get(), std::to_string(pid), real_root_);
    if (!row.files->Read(row.now)) return "no_such_process";
  } catch (const std::system_error&) {
    return "no_such_process";
  } catch (const FormatError&) {
    return "no_such_process";
  }
  row.start = row.files->start_ticks();
  if (!BornInside(row.start, phase_start_boot_ns)) row.from = row.now;
  row.phase_start = row.from;
  rows_.push_back(std::move(row));
  return "";
}

void NamedProcesses::Read() {
  for (Row& r : rows_)
    if (r.files) ReadRow(r);
}

// Gone (reaped, or unreadable from now on): its last reading stands.
void NamedProcesses::ReadRow(Row& r) {
  Values v;
  try {
    if (r.files->Read(v)) return void(r.now = v);
  } catch (const std::system_error&) {
  } catch (const FormatError&) {
  }
  r.files.reset();
}

void NamedProcesses::ClosePhase(SutCost& cost) {
  for (Row& r : rows_) {
    if (r.closed_gone) continue;  // gone in a phase closed already, its scan not written
    auto delta = [&](size_t f) { return r.now[f] - std::min(r.phase_start[f], r.now[f]); };
    cost.cpu_ns += delta(pf::kCpuNs), cost.run_wait_ns += delta(pf::kRunWaitNs);
    cost.read_bytes += delta(pf::kReadBytes), cost.write_bytes += delta(pf::kWriteBytes);
    cost.minflt += delta(pf::kMinflt), cost.majflt += delta(pf::kMajflt);
    cost.ctxsw += delta(pf::kCtxsw);
    ++cost.processes;
    r.phase_start = r.now;
    r.closed_gone = !r.files;
  }
}

void NamedProcesses::ForgetClosedGone() {
  std::erase_if(rows_, [](const Row& r) { return r.closed_gone; });
}

void NamedProcesses::Append(std::string& out) const {
  if (rows_.empty()) return;
  out.append(",\"added\":[");
  for (const Row& r : rows_) {
    if (out.back() != '[') out.push_back(',');
    out.push_back('[');
    out.append(std::to_string(r.pid)).push_back(',');
    out.append(std::to_string(r.start)).push_back(',');
    AppendNamedValues(out, r.now);
    out.push_back(',');
    AppendNamedValues(out, r.from);
    out.push_back(']');
  }
  out.push_back(']');
}

}  // namespace pm

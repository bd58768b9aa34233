#include "daemon/named_processes.hh"

#include <fcntl.h>
#include <time.h>
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
constexpr int64_t kTickNs = 10'000'000;  // /proc/PID/stat's start time: USER_HZ 100

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

std::string_view NamedProcesses::Name(uint32_t pid, int64_t phase_age_ns) {
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
  // Its age on the boot clock its start time counts on, against the
  // phase's: a tick's doubt counts it from its birth.
  timespec boot{};
  clock_gettime(CLOCK_BOOTTIME, &boot);
  const int64_t age = int64_t{boot.tv_sec} * 1'000'000'000 + boot.tv_nsec -
                      static_cast<int64_t>(row.start) * kTickNs;
  const bool born_inside = age <= phase_age_ns + kTickNs;
  if (!born_inside) row.from = row.now;
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

// "procs": processes named by --pid (rows "PID"), and `stat`'s command
// (row "cmd"), each read from /proc/PID/stat and /proc/PID/io, with its
// CPU time and run-queue wait in ns (thread_group_cpu.hh).
//
// The files are opened once (process_reader.hh): a pid reused after an
// exit is never mistaken for its process. A process that is gone (a read fails with ESRCH, or the text is empty) is
// `null` from then on, noted once on stderr; the recording goes on. So is
// one whose files stop making sense or become unreadable (it renamed
// itself oddly, it exec'd a setuid program): a process's row never ends
// the recording. The "cmd" row is zeros until BindCommand(): its process
// does not exist yet, and every counter of a new process starts at zero.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <optional>
#include <system_error>
#include <utility>
#include <vector>

#include "common/error.hh"
#include "daemon/collect/collector.hh"
#include "daemon/collect/process_reader.hh"
#include "proto/columns/process.hh"

namespace pm {
namespace {

void CheckPid(std::string_view pid) {
  bool digits = !pid.empty() && pid.size() < 11 &&
                pid.find_first_not_of("0123456789") == std::string_view::npos;
  if (!digits || pid == "0" || pid.starts_with('0'))
    throw UsageError("--pid '" + std::string(pid) + "': not a process id (write e.g. --pid 1234)");
}

class ProcessCollector final : public Collector {
 public:
  enum class State { kNotStarted, kLive, kGone };
  struct Row {
    std::string name;
    State state;
    std::optional<ProcessReader> files;
    ProcessReader::Values values{};
    std::string comm;  // from its first read, for the header's labels
    // At the phase's start (the first sample, then each ClosePhase()):
    // its values and whether they were recorded (not null).
    ProcessReader::Values phase_start{};
    bool phase_start_recorded = false;
  };

  ProcessCollector(const PgrMember& member, int root_dirfd)
      : member_(member), root_dirfd_(root_dirfd), real_root_(IsRealRoot(root_dirfd)) {}

  void AddPid(const std::string& pid) {
    CheckPid(pid);
    try {
      rows_.push_back({pid, State::kLive, ProcessReader(root_dirfd_, pid, real_root_), {}, {}});
    } catch (const std::system_error& e) {
      if (e.code().value() == EACCES)
        throw UsageError("--pid " + pid + ": cannot read /proc/" + pid +
                         "/io (permission denied); record your own processes, or run as root");
      if (e.code().value() != ENOENT) throw;
      throw UsageError("--pid " + pid + ": no such process (no /proc/" + pid +
                       "); name a running process");
    }
  }
  // The root fd is the caller's for the set-up only: the command's files
  // are opened later, through a copy of it.
  void AddCommand(std::string comm) {
    int fd = ::fcntl(root_dirfd_, F_DUPFD_CLOEXEC, 0);
    if (fd < 0) throw SystemError("cannot duplicate the root directory fd");
    later_root_ = UniqueFd::Adopt(fd);
    rows_.push_back({"cmd", State::kNotStarted, std::nullopt, {}, std::move(comm)});
  }

  void Describe(std::string& out) const override {
    AppendMember(out, member_.key);
    out.append("{\"fields\":");
    AppendStringArray(out, member_.fields);
    out.append(",\"rows\":");
    AppendStringArray(out, rows_, [](const Row& r) -> const std::string& { return r.name; });
    // Readers label a process's series with it (comm, as ps shows it).
    out.append(",\"labels\":{\"comm\":");
    AppendStringArray(out, rows_, [](const Row& r) -> const std::string& { return r.comm; });
    out.append("},\"sources\":");
    DescribeSources(out);
    out.push_back('}');
  }

  // Where each CPU column comes from and its resolution (pgr(5)).
  void DescribeSources(std::string& out) const {
    const std::string tick = std::to_string(1'000'000'000 / hz_);
    out.append("[{\"fields\":[\"utime_us\",\"stime_us\",\"cutime_us\",\"cstime_us\"],"
               "\"file\":\"/proc/PID/stat\",\"resolution_ns\":")
        .append(tick)
        .append(real_root_ ? "},{\"fields\":[\"cpu_ns\"],\"file\":\"process CPU clock\","
                             "\"resolution_ns\":1},{\"fields\":[\"run_wait_ns\"],"
                           : "},{\"fields\":[\"cpu_ns\",\"run_wait_ns\"],")
        .append("\"file\":\"/proc/PID/task/*/schedstat\",\"resolution_ns\":1}]");
  }

  // As Read(), but a row that cannot be read throws.
  void ReadAtStart() {
    for (Row& r : rows_)
      if (r.state == State::kLive && !ReadFiles(r)) Gone(r);
  }

  void Read() override {
    for (Row& r : rows_)
      if (r.state == State::kLive && !ReadRow(r)) Gone(r);
    if (!phase_started_) StartPhase();
  }

  // Exactly what a reader computes for the phase from the rows written.
  void ClosePhase(SutCost& cost) override {
    namespace pf = process_field;
    for (const Row& r : rows_) {
      if (r.state == State::kGone || !r.phase_start_recorded) continue;
      auto delta = [&](size_t f) { return r.values[f] - r.phase_start[f]; };
      cost.cpu_ns += delta(pf::kCpuNs), cost.run_wait_ns += delta(pf::kRunWaitNs);
      cost.read_bytes += delta(pf::kReadBytes), cost.write_bytes += delta(pf::kWriteBytes);
      cost.minflt += delta(pf::kMinflt), cost.majflt += delta(pf::kMajflt);
      cost.ctxsw += delta(pf::kCtxsw);
      ++cost.processes;
    }
    StartPhase();
  }

  bool fine_grained() const override { return true; }  // the CPU clock's ns

  void Append(std::string& out) const override {
    AppendMember(out, member_.key);
    out.push_back('[');
    for (size_t i = 0; i < rows_.size(); ++i) {
      if (i != 0) out.push_back(',');
      if (rows_[i].state == State::kGone) out.append("null");
      else AppendCounters(out, rows_[i].values);
    }
    out.push_back(']');
  }

  void BindCommand(int pid) override {
    for (Row& r : rows_) {
      if (r.state != State::kNotStarted) continue;
      r.name = std::to_string(pid);  // for the note only: the header said "cmd"
      try {
        r.files = ProcessReader(later_root_.Get(), r.name, real_root_);
        r.state = State::kLive;
      } catch (const std::system_error&) {
        // Not in this root (a fake --root tree): null, without a note, as
        // it was never seen running.
        r.state = State::kGone;
      }
    }
  }

 private:
  void StartPhase() {
    phase_started_ = true;
    for (Row& r : rows_) {
      r.phase_start = r.values;
      r.phase_start_recorded = r.state != State::kGone;
    }
  }

  // False when the process is gone or its row can no longer be read.
  bool ReadRow(Row& r) {
    try {
      return ReadFiles(r);
    } catch (const std::system_error& e) {
      int err = e.code().value();
      if (err != ESRCH && err != ENOENT) Unreadable(r, e.what());
      return false;
    } catch (const FormatError& e) {
      Unreadable(r, e.what());
      return false;
    }
  }

  static bool ReadFiles(Row& r) {
    if (!r.files->Read(r.values)) return false;
    if (r.comm.empty()) r.comm = r.files->comm();
    return true;
  }

  static void Gone(Row& r) {
    if (r.state == State::kGone) return;  // noted already (Unreadable)
    r.state = State::kGone;
    r.files.reset();
    std::fprintf(stderr, "perfmonger record: note: process %s is gone; recorded as null from now on\n",
                 r.name.c_str());
  }

  // One warning; the row is null from then on, the recording goes on.
  static void Unreadable(Row& r, const char* why) {
    r.state = State::kGone;
    r.files.reset();
    std::fprintf(stderr,
                 "perfmonger record: warning: process %s can no longer be read (%s); "
                 "recorded as null from now on\n",
                 r.name.c_str(), why);
  }

  const PgrMember& member_;
  int root_dirfd_;         // valid during set-up only
  bool real_root_;         // the process CPU clock is this tree's
  UniqueFd later_root_;    // for BindCommand
  uint64_t hz_ = static_cast<uint64_t>(sysconf(_SC_CLK_TCK));
  std::vector<Row> rows_;
  bool phase_started_ = false;  // by the first sample's Read()
};

}  // namespace

std::unique_ptr<Collector> MakeProcessCollector(CollectorContext& context) {
  auto collector = std::make_unique<ProcessCollector>(context.members[0], context.root_dirfd);
  for (const std::string& pid : context.values) collector->AddPid(pid);
  if (context.options.command_process) collector->AddCommand(context.options.command_comm);
  collector->ReadAtStart();  // a malformed file is a setup error, not a sampling one
  return collector;
}

}  // namespace pm

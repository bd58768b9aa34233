// A recorded process's files: /proc/PID/stat (and its comm), /proc/PID/io
// and a thread's schedstat (daemon/collect/parse_process.hh), see
// proc_fuzz.hh. Beyond that: a comm is whatever lies between the first
// '(' and the last ')', newlines included, so a stat line built around
// any name without ')' gives that name back and parses.
#include "daemon/collect/parse_process.hh"
#include "test/fuzz/proc_fuzz.hh"

namespace {

struct Row {
  pm::ProcStat stat;
  pm::ProcIo io;
  pm::Schedstat sched;
  std::string comm;
};

std::string Show(const Row& r) {
  std::string out = "comm " + r.comm;
  const pm::ProcStat& s = r.stat;
  pm::fuzz::AppendNumbers(out, std::initializer_list<uint64_t>{
                                   s.utime, s.stime, s.cutime, s.cstime, s.num_threads,
                                   s.rss_pages});
  const pm::ProcIo& i = r.io;
  pm::fuzz::AppendNumbers(out, std::initializer_list<uint64_t>{
                                   i.rchar, i.wchar, i.syscr, i.syscw, i.read_bytes,
                                   i.write_bytes});
  pm::fuzz::AppendNumbers(out, std::initializer_list<uint64_t>{r.sched.run_ns, r.sched.wait_ns});
  return out;
}

// Each parser on the whole input; any one's error is the outcome.
void ParseAll(std::string_view text, Row& r) {
  r.comm = pm::ProcStatComm(text);
  pm::ParseProcIo(text, r.io);
  pm::ParseSchedstat(text, r.sched);
  pm::ParseProcStat(text, r.stat);
}

// A name of any bytes but ')' inside a real line.
void NameRoundTrip(std::string_view name) {
  if (name.find(')') != std::string_view::npos) return;
  std::string line = "42 (" + std::string(name) +
                     ") S 1 42 42 0 -1 0 0 0 0 0 11 22 33 44 20 0 4 0 100 200 300\n";
  pm::fuzz::Require(pm::ProcStatComm(line) == name, "comm is the name, whatever its bytes");
  pm::ProcStat s;
  pm::ParseProcStat(line, s);
  pm::fuzz::Require(s.utime == 11 && s.num_threads == 4 && s.rss_pages == 300,
                    "the fields after any name read back");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  pm::fuzz::FuzzParser<Row>(data, size, ParseAll, Show);
  NameRoundTrip(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}

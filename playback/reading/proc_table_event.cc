#include "playback/reading/proc_table_event.hh"

#include "playback/reading/json_reader.hh"
#include "playback/reading/scan_event.hh"

namespace pm {
namespace {

void ReadNumber(JsonReader& r, ProcTableRow& p, int i) {
  switch (i) {
    case 0: p.pid = ReadU32(r); break;
    case 1: p.ppid = ReadU32(r); break;
    case 2: p.uid = ReadU32(r); break;
    case 3: p.start = r.ReadUint64(); break;
    case 4: p.appeared = r.ReadUint64() != 0; break;
    case 5: p.cpu_ns = r.ReadUint64(); break;
    case 6: p.utime_us = r.ReadUint64(); break;
    case 7: p.stime_us = r.ReadUint64(); break;
    case 8: p.run_wait_ns = r.ReadUint64(); break;
    case 9: p.read_bytes = ReadOptional(r); break;
    case 10: p.write_bytes = ReadOptional(r); break;
    case 11: p.rss_kb = r.ReadUint64(); break;
    case 12: p.threads = r.ReadUint64(); break;
  }
}

// [pid,ppid,uid,start,new,cpu_ns,utime_us,stime_us,run_wait_ns,
//  read_bytes,write_bytes,rss_kb,threads,"comm","cmd","cgroup",...]
void ReadRow(JsonReader& r, ProcTableRow& p) {
  r.BeginArray();
  int i = 0;
  for (; r.NextElement(); ++i) {
    if (i < 13) ReadNumber(r, p, i);
    else if (i == 13) p.comm = r.ReadString();
    else if (i == 14) p.cmd = r.ReadString();
    else if (i == 15) p.cgroup = r.ReadString();
    else r.SkipValue();
  }
  if (i < 16) r.Fail("a process row of fewer than 16 values");
}

}  // namespace

void ReadProcTableRows(JsonReader& r, std::vector<ProcTableRow>& out) {
  out.clear();
  r.BeginArray();
  while (r.NextElement()) ReadRow(r, out.emplace_back());
}

void ReadProcTableBrief(JsonReader& r, ProcTableEvent& out) {
  r.BeginArray();
  for (int i = 0; r.NextElement(); ++i) {
    if (i == 0) out.brief_utime_us = r.ReadUint64();
    else if (i == 1) out.brief_stime_us = r.ReadUint64();
    else r.SkipValue();
  }
}

}  // namespace pm

#include "playback/outputs/proc_table_csv.hh"

#include "playback/outputs/export_csv.hh"
#include "playback/outputs/proc_table_json.hh"
#include "proto/json.hh"
#include "proto/text.hh"

namespace pm {
namespace {

void Cell(std::string& out, double v, int digits) {
  out.push_back(',');
  AppendFixed(out, v, digits);
}

}  // namespace

void AppendProcTableCsvHeader(std::string& out) {
  out.append("time,elapsed_time,pid,comm,cpu,usr,sys,rkbyteps,wkbyteps,rss_kb\r\n");
}

void AppendProcTableCsvRows(std::string& out, const ProcTableEvent& e, int64_t mono_ns,
                            double time, double elapsed_time) {
  const int64_t interval_ns = mono_ns - e.since_mono_ns;
  for (const ProcTableRow& r : e.rows) {
    const ProcRowRates rates = RatesOf(r, interval_ns);
    AppendFixed(out, time, 3);
    Cell(out, elapsed_time, 3);
    out.push_back(',');
    AppendUint(out, r.pid);
    out.push_back(',');
    AppendCsvField(out, r.comm);
    Cell(out, rates.cpu, 2);
    Cell(out, rates.usr, 2);
    Cell(out, rates.sys, 2);
    out.push_back(',');
    if (rates.rkbyteps) AppendFixed(out, *rates.rkbyteps, 2);
    out.push_back(',');
    if (rates.wkbyteps) AppendFixed(out, *rates.wkbyteps, 2);
    out.push_back(',');
    AppendUint(out, r.rss_kb);
    out.append("\r\n");
  }
}

}  // namespace pm

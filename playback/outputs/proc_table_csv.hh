// play --format csv --proctable: the process table (record --record-procs)
// in long form, one row per process and procs line, for pandas and
// spreadsheets (RFC 4180, CRLF, as export_csv.hh):
//   time,elapsed_time,pid,comm,cpu,usr,sys,rkbyteps,wkbyteps,rss_kb
// time and elapsed_time are those of the sample the line was written with
// (the CSV's and play's); the rest are play's "proctable" values over the
// line's own interval: cpu, usr, sys in % of one core (%.2f; usr and sys
// from 10 ms ticks), rkbyteps and wkbyteps in kB/s (empty when /proc/PID/io
// was unreadable), rss_kb.
#pragma once

#include <cstdint>
#include <string>

#include "playback/reading/proc_table_event.hh"

namespace pm {

void AppendProcTableCsvHeader(std::string& out);
void AppendProcTableCsvRows(std::string& out, const ProcTableEvent& e, int64_t mono_ns,
                            double time, double elapsed_time);

}  // namespace pm

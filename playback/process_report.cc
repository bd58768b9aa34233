// "procs" in play and summary: per process row ("PID", or "cmd" for
// `stat`'s command), children that were waited for included.
//   play:    {"cmd":{"usr":..,"sys":..,"child_usr":..,"child_sys":..,   % of one core
//                    "rkbyteps":..,"wkbyteps":..,                       storage I/O
//                    "rchar_kbyteps":..,"wchar_kbyteps":..,             read()/write() bytes
//                    "syscrps":..,"syscwps":..,"num_threads":N,"rss_kb":N}}
//   summary: the amounts over the span (CPU seconds, bytes) beside the
//            system's: its busy CPU seconds and the recorded disks' bytes.
// A process gone (or not yet started) in either sample of a pair is null.
#include "playback/rates.hh"
#include "playback/cpu_report.hh"
#include "playback/disk_report.hh"
#include "playback/report.hh"
#include "proto/json.hh"
#include "proto/pgr_collectors.hh"

namespace pm {
namespace {

using namespace process_field;
using Field = size_t;
static_assert(kProcessFields.size() == kRssKb + 1);
constexpr size_t kMember = PgrMemberIndex("procs");
constexpr size_t kLevels = kProcessFields.size() - kProcessCounters;

void PlayRow(std::string& out, const RowDelta& v, double s) {
  auto pct = [&](Field f) { return PerSecond(v[f] / 1e6, s) * 100.0; };
  auto kbps = [&](Field f) { return PerSecond(v[f] / 1024.0, s); };
  out.push_back('{');
  AppendFixedMember(out, "usr", pct(kUtime));
  AppendFixedMember(out, "sys", pct(kStime));
  AppendFixedMember(out, "child_usr", pct(kCutime));
  AppendFixedMember(out, "child_sys", pct(kCstime));
  AppendFixedMember(out, "rkbyteps", kbps(kReadBytes));
  AppendFixedMember(out, "wkbyteps", kbps(kWriteBytes));
  AppendFixedMember(out, "rchar_kbyteps", kbps(kRchar));
  AppendFixedMember(out, "wchar_kbyteps", kbps(kWchar));
  AppendFixedMember(out, "syscrps", PerSecond(v[kSyscr], s));
  AppendFixedMember(out, "syscwps", PerSecond(v[kSyscw], s));
  AppendUintMember(out, "num_threads", static_cast<uint64_t>(v[kThreads]));
  AppendUintMember(out, "rss_kb", static_cast<uint64_t>(v[kRssKb]));
  out.push_back('}');
}

// {"ROW":{..} or null,...}
template <class Row>
void Rows(std::string& out, const Pair& p, Row row) {
  const MemberRows &prev = p.prev.members[kMember], &cur = p.cur.members[kMember];
  out.push_back('{');
  for (size_t i = 0; i < cur.rows(); ++i) {
    if (out.back() != '{') out.push_back(',');
    AppendJsonKey(out, cur.names[i]);
    RowDelta d = DeltaOf(prev, cur, i, kLevels);
    if (d.present) row(d);
    else out.append("null");
  }
  out.push_back('}');
}

void Play(std::string& out, const Pair& p) {
  if (!p.Both(kMember)) return;
  out.append(",\"procs\":");
  Rows(out, p, [&](const RowDelta& v) { PlayRow(out, v, p.interval); });
}

double CpuSeconds(const RowDelta& v) {
  return (v[kUtime] + v[kStime] + v[kCutime] + v[kCstime]) / 1e6;
}

// {"cmd":{"cpu_sec":..,"usr_sec":..,"sys_sec":..,"read_bytes":N,...},
//  "system":{"cpu_sec":..,"read_bytes":N,"write_bytes":N}}
void SummaryJson(std::string& out, const Pair& p) {
  if (!p.rated() || !p.Both(kMember)) return;
  const DiskSectors disk = TotalSectors(p);
  out.append(",\"procs\":");
  Rows(out, p, [&](const RowDelta& v) {
    out.push_back('{');
    AppendFixedMember(out, "cpu_sec", CpuSeconds(v));
    AppendFixedMember(out, "usr_sec", (v[kUtime] + v[kCutime]) / 1e6);
    AppendFixedMember(out, "sys_sec", (v[kStime] + v[kCstime]) / 1e6);
    AppendUintMember(out, "read_bytes", static_cast<uint64_t>(v[kReadBytes]));
    AppendUintMember(out, "write_bytes", static_cast<uint64_t>(v[kWriteBytes]));
    AppendUintMember(out, "rchar", static_cast<uint64_t>(v[kRchar]));
    AppendUintMember(out, "wchar", static_cast<uint64_t>(v[kWchar]));
    AppendUintMember(out, "num_threads", static_cast<uint64_t>(v[kThreads]));
    AppendUintMember(out, "rss_kb", static_cast<uint64_t>(v[kRssKb]));
    out.push_back('}');
  });
  out.pop_back();
  out.append(",\"system\":{");
  AppendFixedMember(out, "cpu_sec", BusyCpuSeconds(p));
  AppendUintMember(out, "read_bytes", static_cast<uint64_t>(disk.read) * 512);
  AppendUintMember(out, "write_bytes", static_cast<uint64_t>(disk.written) * 512);
  out.append("}}");
}

void Line(std::string& out, std::string_view label, double own, double system, int precision,
          std::string_view unit) {
  out.append(label);
  AppendFixed(out, own, precision);
  out.append(unit).append("   (system: ");
  AppendFixed(out, system, precision);
  out.append(unit).append(")\n");
}

// * Process cmd (children included)
//         CPU time: 1.23 sec   (system: 4.56 sec)
void SummaryText(std::string& out, const Pair& p) {
  if (!p.rated() || !p.Both(kMember)) return;
  const DiskSectors disk = TotalSectors(p);
  const double mb = 1024.0 * 1024.0;
  const MemberRows &prev = p.prev.members[kMember], &cur = p.cur.members[kMember];
  for (size_t i = 0; i < cur.rows(); ++i) {
    out.append("* Process ").append(cur.names[i]).append(" (waited-for children included)\n");
    const RowDelta v = DeltaOf(prev, cur, i, kLevels);
    if (!v.present) {
      out.append("  not running at both ends of the span\n\n");
      continue;
    }
    Line(out, "         CPU time: ", CpuSeconds(v), BusyCpuSeconds(p), 2, " sec");
    Line(out, "      read amount: ", v[kReadBytes] / mb,
         static_cast<double>(disk.read) * 512.0 / mb, 2, " MB");
    Line(out, "     write amount: ", v[kWriteBytes] / mb,
         static_cast<double>(disk.written) * 512.0 / mb, 2, " MB");
    out.append("    read() amount: ");
    AppendFixed(out, v[kRchar] / mb, 2);
    out.append(" MB\n   write() amount: ");
    AppendFixed(out, v[kWchar] / mb, 2);
    out.append(" MB\n\n");
  }
}

}  // namespace

extern const Report kProcessReport;
constexpr Report kProcessReport = {
    .play = Play,
    .summary_text = SummaryText,
    .summary_json = SummaryJson,
    .phases = &kCounterGaps,
    .csv = nullptr,
    .openmetrics = nullptr,
    .plot = nullptr,
    .live = nullptr,
};

}  // namespace pm

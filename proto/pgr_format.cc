#include "proto/pgr_format.hh"

#include <chrono>
#include <cstdio>

#include "proto/json.hh"

namespace pm {

// Calendar arithmetic instead of gmtime_r, which makes glibc open and read
// /etc/localtime on first use: four system calls on the way to the ready line.
std::string FormatRfc3339(int64_t realtime_ns) {
  using namespace std::chrono;
  sys_time<nanoseconds> t{nanoseconds{realtime_ns}};
  sys_days day = floor<days>(t);
  year_month_day ymd{day};
  hh_mm_ss<nanoseconds> tod{t - day};
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02u-%02uT%02lld:%02lld:%02lld.%06lldZ",
                static_cast<int>(ymd.year()), static_cast<unsigned>(ymd.month()),
                static_cast<unsigned>(ymd.day()),
                static_cast<long long>(tod.hours().count()),
                static_cast<long long>(tod.minutes().count()),
                static_cast<long long>(tod.seconds().count()),
                static_cast<long long>(tod.subseconds().count() / 1000));
  return buf;
}

std::string EncodeHeaderLine(const RecordingHeader& h) {
  std::string out = "{\"format\":";
  AppendJsonString(out, kPgrFormatName);
  out.append(",\"version\":");
  AppendInt(out, kPgrVersion);
  out.append(",\"host\":");
  AppendJsonString(out, h.host);
  out.append(",\"kernel\":");
  AppendJsonString(out, h.kernel);
  out.append(",\"start_time\":");
  AppendJsonString(out, FormatRfc3339(h.start_ns));
  out.append(",\"start_ns\":");
  AppendInt(out, h.start_ns);
  out.append(",\"interval_ns\":");
  AppendInt(out, h.interval_ns);
  out.append(",\"num_core\":");
  AppendInt(out, h.num_core);
  out.append(",\"pid\":");
  AppendInt(out, h.pid);
  out.append(",\"collectors\":");
  out.append(h.collectors_json.empty() ? "{}" : h.collectors_json);
  out.append(",\"meta\":{");
  for (size_t i = 0; i < h.meta.size(); ++i) {
    if (i) out.push_back(',');
    AppendJsonKey(out, h.meta[i].first);
    AppendJsonString(out, h.meta[i].second);
  }
  out.append("}}\n");
  return out;
}

void BeginSampleLine(std::string& out, int64_t t_ns, int64_t mono_ns) {
  out.append("{\"t\":");
  AppendInt(out, t_ns);
  out.append(",\"mono\":");
  AppendInt(out, mono_ns);
}

std::string EncodeEventLine(std::string_view kind, int64_t t_ns, int64_t mono_ns,
                            std::string_view label) {
  std::string out = "{\"event\":";
  AppendJsonString(out, kind);
  out.append(",\"t\":");
  AppendInt(out, t_ns);
  out.append(",\"mono\":");
  AppendInt(out, mono_ns);
  if (!label.empty()) {
    out.append(",\"label\":");
    AppendJsonString(out, label);
  }
  out.append("}\n");
  return out;
}

std::string EncodeEndLine(const EndEvent& e) {
  std::string out = "{\"event\":\"end\",\"t\":";
  AppendInt(out, e.t_ns);
  out.append(",\"mono\":");
  AppendInt(out, e.mono_ns);
  out.append(",\"reason\":");
  AppendJsonString(out, e.reason);
  out.append(",\"samples\":");
  AppendUint(out, e.samples);
  out.append(",\"missed_ticks\":");
  AppendUint(out, e.missed_ticks);
  out.append("}\n");
  return out;
}

}  // namespace pm

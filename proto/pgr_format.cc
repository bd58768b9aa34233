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

void AppendClockJson(std::string& out, const ClockState& c) {
  JsonObjectWriter o(out);
  if (c.disciplined)
    o.Bool("synced", c.synced)
        .Int("offset_ns", c.offset_ns)
        .Int("maxerror_us", c.maxerror_us)
        .Int("esterror_us", c.esterror_us);
  if (!c.source.empty()) o.Str("source", c.source);
  o.Close();
}

std::string EncodeHeaderLine(const RecordingHeader& h) {
  std::string out;
  JsonObjectWriter header(out);
  header.Str("format", kPgrFormatName)
      .Int("version", h.version)
      .Str("host", h.host)
      .Str("kernel", h.kernel)
      .Str("start_time", FormatRfc3339(h.start_ns))
      .Int("start_ns", h.start_ns)
      .Int("interval_ns", h.interval_ns)
      .Int("num_core", h.num_core)
      .Int("pid", h.pid)
      .Raw("collectors", h.collectors_json.empty() ? "{}" : h.collectors_json);
  JsonObjectWriter meta(header.Key("meta"));
  for (const auto& [key, value] : h.meta) meta.Str(key, value);
  meta.Close();
  if (h.clock) AppendClockJson(header.Key("clock"), *h.clock);
  header.Close();
  out.push_back('\n');
  return out;
}

void BeginSampleLine(std::string& out, int64_t t_ns, int64_t mono_ns) {
  // Left open: the collectors append their fields, the caller the "}".
  JsonObjectWriter(out).Int("t", t_ns).Int("mono", mono_ns);
}

std::string EncodeEventLine(std::string_view kind, int64_t t_ns, int64_t mono_ns,
                            std::string_view label, const ClockState* clock) {
  std::string out;
  JsonObjectWriter event(out);
  event.Str("event", kind).Int("t", t_ns).Int("mono", mono_ns);
  if (!label.empty()) event.Str("label", label);
  if (clock) AppendClockJson(event.Key("clock"), *clock);
  event.Close();
  out.push_back('\n');
  return out;
}

std::string EncodeEndLine(const EndEvent& e) {
  std::string out;
  JsonObjectWriter end(out);
  end.Str("event", "end")
      .Int("t", e.t_ns)
      .Int("mono", e.mono_ns)
      .Str("reason", e.reason)
      .Uint("samples", e.samples)
      .Uint("missed_ticks", e.missed_ticks);
  if (e.clock) AppendClockJson(end.Key("clock"), *e.clock);
  end.Close();
  out.push_back('\n');
  return out;
}

}  // namespace pm

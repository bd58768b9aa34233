#include "playback/reports/clock_report.hh"

#include "proto/json.hh"
#include "proto/pgr_format.hh"
#include "proto/text.hh"

namespace pm {
namespace {

void AppendMs(std::string& out, std::string_view what, double ms) {
  out.append(", ").append(what).push_back(' ');
  AppendFixed(out, ms, 3);
  out.append(" ms");
}

std::string Milliseconds(double ms) {
  std::string out;
  AppendFixed(out, ms, 3);
  return out + " ms";
}

}  // namespace

std::string DescribeClock(const ClockState& c) {
  std::string out;
  if (c.disciplined) {
    out = c.synced ? "synchronised" : "not synchronised";
    AppendMs(out, "offset", static_cast<double>(c.offset_ns) / 1e6);
    AppendMs(out, "max error", static_cast<double>(c.maxerror_us) / 1e3);
    AppendMs(out, "est. error", static_cast<double>(c.esterror_us) / 1e3);
  }
  if (!c.source.empty()) {
    if (!out.empty()) out.append(", ");
    out.append("clocksource ");
    AppendPrintable(out, c.source);
  }
  return out.empty() ? "unknown" : out;
}

ClockHistory::ClockHistory(const RecordingInfo& info) : interval_ns_(info.interval_ns) {
  start_ = info.clock;
  if (start_) Note(*start_, "at the start");
}

void ClockHistory::OnEvent(const RecordingEvent& event) {
  if (!event.clock) return;
  if (event.kind == "end") {
    end_ = event.clock;
    Note(*end_, "at the end");
  } else if (event.kind == "mark") {
    Note(*event.clock, "at mark '" + Printable(event.label) + "'");
  }
}

void ClockHistory::Note(const ClockState& clock, const std::string& where) {
  if (!clock.disciplined) return;
  if (!clock.synced) {
    if (!unsynced_at_) unsynced_at_ = where;
  } else if (clock.maxerror_us > worst_maxerror_us_) {
    worst_maxerror_us_ = clock.maxerror_us;
    worst_at_ = where;
  }
}

std::vector<std::string> ClockHistory::Warnings() const {
  std::vector<std::string> out;
  if (unsynced_at_)
    out.push_back("the clock was not synchronised " + *unsynced_at_ +
                  " (adjtimex): its times may not line up with another host's");
  // maxerror_us * 1000 > interval_ns, in integers that cannot overflow
  if (worst_at_ && interval_ns_ > 0 && worst_maxerror_us_ > interval_ns_ / 1000)
    out.push_back("the clock's maximum error was " +
                  Milliseconds(static_cast<double>(worst_maxerror_us_) / 1e3) + " " +
                  *worst_at_ + ", more than the " +
                  Milliseconds(static_cast<double>(interval_ns_) / 1e6) +
                  " interval: samples may not line up with another host's");
  return out;
}

void AppendClockText(std::string& out, const ClockHistory& clocks) {
  out.append("Clock:\n");
  if (clocks.start()) out.append("  at start: ").append(DescribeClock(*clocks.start())) += '\n';
  if (clocks.end()) out.append("    at end: ").append(DescribeClock(*clocks.end())) += '\n';
  out.push_back('\n');
}

void AppendClockSummaryJson(std::string& out, const ClockHistory& clocks) {
  JsonObjectWriter o(out);
  if (clocks.start()) AppendClockJson(o.Key("start"), *clocks.start());
  if (clocks.end()) AppendClockJson(o.Key("end"), *clocks.end());
  o.Close();
}

}  // namespace pm

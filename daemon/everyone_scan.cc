#include "daemon/everyone_scan.hh"

#include "proto/json.hh"

namespace pm {

std::string EveryoneScan::Line(std::string_view at, int64_t t_ns, int64_t mono_ns,
                               int64_t lag_ns) {
  std::string out;
  out.reserve(64 * 1024);
  JsonObjectWriter event(out);
  event.Str("event", "scan").Int("t", t_ns).Int("mono", mono_ns).Str("at", at);
  event.Int("lag_ns", lag_ns);
  std::string& sut = event.Key("sut");
  sut.push_back('[');
  for (const std::string& pid : sut_) {
    if (sut.back() != '[') sut.push_back(',');
    sut.append(pid);  // digits: checked as --pid values, or a number
  }
  sut.push_back(']');
  scan_.Append(event.Key("processes"));
  named_.Append(out);
  named_.ForgetClosedGone();  // each gone one in the scan of the phase it died in, then no more
  event.Close();
  out.push_back('\n');
  return out;
}

}  // namespace pm

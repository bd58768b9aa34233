#include "proto/ready_event.hh"

#include "proto/json.hh"
#include "proto/pgr_format.hh"

namespace pm {

std::string EncodeReadyLine(int pid, std::string_view output,
                            int64_t start_realtime_ns, std::string_view state) {
  std::string out;
  JsonObjectWriter ready(out);
  ready.Str("event", "ready")
      .Int("version", kReadyEventVersion)
      .Int("pid", pid)
      .Str("output", output)
      .Str("start_time", FormatRfc3339(start_realtime_ns));
  if (!state.empty()) ready.Str("state", state);
  ready.Close();
  out.push_back('\n');
  return out;
}

}  // namespace pm

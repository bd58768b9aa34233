#include "proto/ready_event.hh"

#include "proto/json.hh"
#include "proto/pgr_format.hh"

namespace pm {

std::string EncodeReadyLine(int pid, std::string_view output,
                            int64_t start_realtime_ns, std::string_view state) {
  std::string out = "{\"event\":\"ready\",\"version\":";
  AppendInt(out, kReadyEventVersion);
  out.append(",\"pid\":");
  AppendInt(out, pid);
  out.append(",\"output\":");
  AppendJsonString(out, output);
  out.append(",\"start_time\":");
  AppendJsonString(out, FormatRfc3339(start_realtime_ns));
  if (!state.empty()) {
    out.append(",\"state\":");
    AppendJsonString(out, state);
  }
  out.append("}\n");
  return out;
}

}  // namespace pm

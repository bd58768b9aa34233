#include "proto/control_reply.hh"

#include "proto/control_protocol.hh"
#include "proto/json.hh"

namespace pm {
namespace {

// {"seq":N,"cmd":"..","ok":
void AppendHead(std::string& out, uint64_t seq, std::string_view cmd) {
  out.append("{\"seq\":");
  AppendUint(out, seq);
  out.append(",\"cmd\":");
  AppendJsonString(out, cmd.substr(0, kMaxEchoedVerb));
  out.append(",\"ok\":");
}

void AppendUintField(std::string& out, std::string_view key,
                     std::optional<uint64_t> v) {
  if (!v) return;
  out.push_back(',');
  AppendJsonKey(out, key);
  AppendUint(out, *v);
}

void AppendIntField(std::string& out, std::string_view key,
                    std::optional<int64_t> v) {
  if (!v) return;
  out.push_back(',');
  AppendJsonKey(out, key);
  AppendInt(out, *v);
}

}  // namespace

std::string EncodeOkReply(uint64_t seq, std::string_view cmd,
                          const ReplyFields& f) {
  std::string out;
  AppendHead(out, seq, cmd);
  out.append("true");
  if (!f.state.empty()) {
    out.append(",\"state\":");
    AppendJsonString(out, f.state.substr(0, kMaxEchoedVerb));
  }
  AppendUintField(out, "samples", f.samples);
  if (f.changed) out.append(*f.changed ? ",\"changed\":true" : ",\"changed\":false");
  AppendIntField(out, "t", f.t_ns);
  AppendIntField(out, "mono", f.mono_ns);
  AppendUintField(out, "missed_ticks", f.missed_ticks);
  AppendUintField(out, "bytes_out", f.bytes_out);
  out.append("}\n");
  return out;
}

std::string EncodeErrorReply(uint64_t seq, std::string_view cmd,
                             std::string_view error) {
  std::string out;
  AppendHead(out, seq, cmd);
  out.append("false,\"error\":");
  AppendJsonString(out, error.substr(0, kMaxReplyError));
  out.append("}\n");
  return out;
}

}  // namespace pm

#include "proto/control_reply.hh"

#include "proto/control_protocol.hh"
#include "proto/json.hh"

namespace pm {
namespace {

// {"seq":N,"cmd":"..","ok":OK — left open for the rest.
JsonObjectWriter Head(std::string& out, uint64_t seq, std::string_view cmd, bool ok) {
  JsonObjectWriter reply(out);
  reply.Uint("seq", seq).Str("cmd", cmd.substr(0, kMaxEchoedVerb)).Bool("ok", ok);
  return reply;
}

void AppendCost(std::string& out, const SutCost& c) {
  JsonObjectWriter o(out);
  o.Uint("cpu_ns", c.cpu_ns).Uint("run_wait_ns", c.run_wait_ns);
  o.Uint("read_bytes", c.read_bytes).Uint("write_bytes", c.write_bytes);
  o.Uint("minflt", c.minflt).Uint("majflt", c.majflt).Uint("ctxsw", c.ctxsw);
  o.Uint("processes", c.processes).Close();
}

}  // namespace

std::string EncodeOkReply(uint64_t seq, std::string_view cmd,
                          const ReplyFields& f) {
  std::string out;
  JsonObjectWriter reply = Head(out, seq, cmd, true);
  if (!f.state.empty()) reply.Str("state", f.state.substr(0, kMaxEchoedVerb));
  if (f.samples) reply.Uint("samples", *f.samples);
  if (f.changed) reply.Bool("changed", *f.changed);
  if (f.t_ns) reply.Int("t", *f.t_ns);
  if (f.mono_ns) reply.Int("mono", *f.mono_ns);
  if (f.cost) AppendCost(reply.Key("cost"), *f.cost);
  if (f.missed_ticks) reply.Uint("missed_ticks", *f.missed_ticks);
  if (f.bytes_out) reply.Uint("bytes_out", *f.bytes_out);
  reply.Close();
  out.push_back('\n');
  return out;
}

std::string EncodeErrorReply(uint64_t seq, std::string_view cmd,
                             std::string_view error) {
  std::string out;
  Head(out, seq, cmd, false).Str("error", error.substr(0, kMaxReplyError)).Close();
  out.push_back('\n');
  return out;
}

}  // namespace pm

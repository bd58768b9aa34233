// /proc/net/snmp's and /proc/net/netstat's header pairs and
// /proc/net/sockstat's inline pairs through the fixed-fields parser
// (daemon/collect/parse_fields.hh), see proc_fuzz.hh. The collector parses
// its files into values reset each sample, so the target does too.
#include "daemon/collect/parse_fields.hh"
#include "proto/columns/netstat.hh"
#include "proto/columns/sockstat.hh"
#include "test/fuzz/proc_fuzz.hh"

namespace {

const pm::FieldMatcher kNetstat(pm::kNetstatFields), kSockstat(pm::kSockstatFields);

std::string Parsed(std::string_view text, pm::FieldsLayout layout, const pm::FieldMatcher& m,
                   pm::FieldValues& o) {
  o.Reset(m.size());
  return pm::fuzz::Outcome(
      text, o,
      [&](std::string_view t, pm::FieldValues& v) { pm::ParseFields(t, layout, m, v, "/proc/net/x"); },
      pm::fuzz::ShowFields<pm::FieldValues>);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  pm::fuzz::FuzzParser<pm::FieldValues>(
      data, size,
      [](std::string_view t, pm::FieldValues& o) {
        o.Reset(kNetstat.size());
        pm::ParseFields(t, pm::FieldsLayout::kHeaderPairs, kNetstat, o, "/proc/net/snmp");
      },
      pm::fuzz::ShowFields<pm::FieldValues>);
  // The same text as sockstat's lines: parsing twice agrees.
  std::string_view text(reinterpret_cast<const char*>(data), size);
  pm::FieldValues a, b;
  pm::fuzz::Require(Parsed(text, pm::FieldsLayout::kInlinePairs, kSockstat, a) ==
                        Parsed(text, pm::FieldsLayout::kInlinePairs, kSockstat, b),
                    "sockstat's reading is the same twice");
  return 0;
}

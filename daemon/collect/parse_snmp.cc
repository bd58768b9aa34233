#include "daemon/collect/parse_snmp.hh"

#include <string>

#include "daemon/collect/scan.hh"

namespace pm {
namespace {

// The field "proto_name" is, or kNetstatFields.size().
size_t FieldOf(std::string_view proto, std::string_view name) {
  for (size_t f = 0; f < kNetstatFields.size(); ++f) {
    std::string_view field = kNetstatFields[f];
    if (field.size() == proto.size() + 1 + name.size() && field.starts_with(proto) &&
        field[proto.size()] == '_' && field.ends_with(name))
      return f;
  }
  return kNetstatFields.size();
}

bool Recorded(std::string_view proto) {
  return proto == "Tcp" || proto == "Udp" || proto == "TcpExt";
}

// One protocol's two lines, both after their "Proto:" prefix.
void ParsePair(std::string_view proto, std::string_view names, std::string_view values,
               NetstatValues& out, std::string_view source, int line) {
  for (;;) {
    std::string_view name = scan::NextWord(names);
    std::string_view value = scan::NextWord(values);
    if (name.empty()) return;
    if (value.empty())
      scan::ThrowAt(source, line, std::string(proto) + ": fewer values than names");
    size_t f = FieldOf(proto, name);
    if (f == kNetstatFields.size()) continue;
    uint64_t v = 0;
    if (scan::NextU64(value, v) != scan::Num::kOk)
      scan::ThrowAt(source, line, "expected an unsigned number for " + std::string(proto) + " " +
                                      std::string(name));
    out.values[f] = v;
    out.present[f] = true;
  }
}

}  // namespace

void ParseSnmp(std::string_view text, NetstatValues& out, std::string_view source) {
  scan::Lines lines(text);
  for (std::string_view header; lines.Next(header);) {
    size_t colon = header.find(':');
    if (colon == std::string_view::npos) continue;
    std::string_view proto = header.substr(0, colon);
    std::string_view values;
    if (!lines.Next(values) || !values.starts_with(header.substr(0, colon + 1)))
      scan::ThrowAt(source, lines.number(),
                    "expected the values line of " + std::string(proto) + " after its names");
    if (Recorded(proto))
      ParsePair(proto, header.substr(colon + 1), values.substr(colon + 1), out, source,
                lines.number());
  }
}

}  // namespace pm

// Named counters in /proc text, one parser for every fixed-fields
// collector (vmstat, netstat, sockstat...): a member's fields are found
// by name, never by position, so a kernel may add, drop or reorder them;
// names no field takes are skipped. Pure: text in, values out.
//
//   kNameValue    "name value", one a line (/proc/vmstat): field "name"
//   kHeaderPairs  a line of names then a line of values, each opened by
//                 "Proto:" (/proc/net/snmp, net/netstat): field "Proto_Name"
//   kInlinePairs  "Proto: name value name value ..." (/proc/net/sockstat):
//                 field "Proto_name"
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace pm {

enum class FieldsLayout : uint8_t { kNameValue, kHeaderPairs, kInlinePairs };

// A member's fields by name. A field in `zoned` is also given per memory
// zone by older kernels ("pgscan_kswapd_normal", before 4.8): such lines
// are summed into it, as sar sums them.
class FieldMatcher {
 public:
  static constexpr size_t npos = static_cast<size_t>(-1);

  explicit FieldMatcher(std::span<const std::string_view> fields,
                        std::span<const std::string_view> zoned = {});
  size_t size() const { return fields_.size(); }
  // The field that "proto_name" (or "name" without a proto) counts
  // towards, or npos.
  size_t Find(std::string_view proto, std::string_view name) const;

 private:
  size_t Exact(std::string_view name) const;
  size_t Zoned(std::string_view name) const;

  std::span<const std::string_view> fields_;
  std::span<const std::string_view> zoned_;
  std::vector<size_t> sorted_;  // field indices by name, for a binary search
  mutable std::string scratch_;  // "Proto_Name" being looked up
};

struct FieldValues {
  std::vector<uint64_t> values;  // per field
  std::vector<uint8_t> present;  // per field: the file printed it
  void Reset(size_t fields);     // zeros, none present; keeps the storage
};

// Adds the fields `text` holds into `out` (Reset once per sample: several
// files may fill one member). Throws FormatError "source:line: ..." for a
// taken name without an unsigned number, or a header line without its
// values line.
void ParseFields(std::string_view text, FieldsLayout layout, const FieldMatcher& fields,
                 FieldValues& out, std::string_view source);

}  // namespace pm

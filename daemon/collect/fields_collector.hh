// The fixed-fields collector: one member of named counters read from one
// or more /proc files (parse_fields.hh), as a table says. A collector of
// that kind is its table and a factory line (vmstat_collector.cc):
//
//   constexpr FieldsFile kFiles[] = {{"proc/vmstat", FieldsLayout::kNameValue}};
//   std::unique_ptr<Collector> MakeVmstatCollector(CollectorContext& c) {
//     return MakeFieldsCollector(c, {kFiles});
//   }
//
// The header declares the fields the kernel printed at the start, so a
// reader shows a field an older kernel lacks as absent, not zero. A tree
// without the first file (a --root that has none) records null, as `stat`
// turns some of these collectors on for every root; a later file that is
// missing (a kernel built without it) adds nothing.
#pragma once

#include <memory>
#include <span>
#include <string_view>

#include "daemon/collect/collector.hh"
#include "daemon/collect/parse_fields.hh"

namespace pm {

struct FieldsFile {
  std::string_view path;  // below the root: "proc/net/snmp"
  FieldsLayout layout;
  // kWhole for a file the kernel shows in one go (single_open), as the
  // net/ ones; kRecords when a short read may come before the end.
  ProcFile::Delivery delivery = ProcFile::Delivery::kWhole;
};

struct FieldsTable {
  std::span<const FieldsFile> files;
  std::span<const std::string_view> zoned = {};  // FieldMatcher's
};

// The collector of the context's one member, by `table` (which, a
// constant, outlives it). Reads the files once: a malformed one is a setup
// error.
std::unique_ptr<Collector> MakeFieldsCollector(CollectorContext& context,
                                               const FieldsTable& table);

}  // namespace pm

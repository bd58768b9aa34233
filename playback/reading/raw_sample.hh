// What every reader hands on: one sample of raw cumulative counters,
// whatever the recording's format (native NDJSON, legacy PerfMonger gob),
// in one shape for every collector: per member of proto/pgr_collectors.hh
// (by position), a table of named rows of counters. The descriptor says
// what a member's rows and columns are; nothing here names a collector, so
// adding one changes no type that half the tree includes.
#pragma once

#include <memory>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "proto/header_values.hh"

namespace pm {

struct ScanEvent;
struct ProcTableEvent;

// One member of a sample line: `rows()` rows of `width` values each, in
// the descriptor's field order (a field the recording lacks reads 0).
//   cpu    rows "all", "0", "1", ...: the aggregate line, then each core
//   proc   one row; mem one row
//   disk, net, pressure, procs, cgroups, cgroup_io: one row per name
//   intr   one row per interrupt source ("24", "NMI"), one value per CPU
struct MemberRows {
  bool has = false;                // the line carried the member (not null)
  size_t width = 0;                // values per row
  std::vector<std::string> names;  // per row
  std::vector<uint8_t> present;    // per row: 0 = null in this line
  std::vector<uint64_t> values;    // row after row

  size_t rows() const { return names.size(); }
  bool live(size_t row) const { return present[row] != 0; }
  std::span<const uint64_t> row(size_t i) const { return {values.data() + i * width, width}; }
  std::span<uint64_t> row(size_t i) { return {values.data() + i * width, width}; }
  uint64_t at(size_t row, size_t field) const { return values[row * width + field]; }

  // `rows` rows of `width` zeros, absent; names kept where there were rows.
  void Resize(size_t rows, size_t width);
  // Not carried: no rows.
  void Clear();
  // The row named `name`, looking at `hint` first (a recording keeps its
  // rows in one order), or npos.
  size_t Find(std::string_view name, size_t hint) const;
  static constexpr size_t npos = static_cast<size_t>(-1);
};

struct RawSample {
  RawSample();  // every member, not carried

  int64_t time_ns = 0;   // CLOCK_REALTIME
  int64_t mono_ns = 0;   // CLOCK_MONOTONIC (0 in legacy recordings)
  std::vector<MemberRows> members;  // per PgrMember, in kCollectors order
};

// Where some of a member's counters came from, and how fine they are: one
// entry of its header description's "sources" (pgr(5); the cpu
// collector's members, from recordings that name them).
struct SeriesSource {
  size_t member = 0;                // PgrMember index
  std::vector<std::string> fields;  // the descriptor's names
  std::vector<std::string> rows;    // "all", "cores"
  std::string file;                 // as on the recorded machine
  int64_t resolution_ns = 0;        // 0: not given
  bool Covers(std::string_view field, std::string_view rows_word) const;
};

// An item's instant on the clocks a recording carries (mono 0: none, as
// in PerfMonger's).
struct ItemTime {
  int64_t time_ns = 0;
  int64_t mono_ns = 0;
};

// The recording as a whole, from its header.
struct RecordingInfo {
  RecordingInfo();

  std::string format;      // "perfmonger-pgr" or "perfmonger-gob" (legacy)
  int version = 0;
  std::string host;
  std::string kernel;      // uname's release; "" for legacy recordings
  int64_t start_ns = 0;
  int64_t interval_ns = 0; // 0 when unknown (legacy)
  int num_core = 0;
  int64_t pid = 0;         // the recorder's (0: unknown)
  MetaList meta;           // decoded key/value pairs, in recorded order
  // Per member, per descriptor field: recorded (a field the header did not
  // declare reads 0 but was never measured: PerfMonger had no
  // MemAvailable). Empty: every field.
  std::vector<std::vector<bool>> recorded;
  // Per member: labels its header gives each row ("labels":{"comm":[..]}),
  // name and one value per row.
  std::vector<std::vector<std::pair<std::string, std::vector<std::string>>>> row_labels;
  std::optional<ClockState> clock;  // at the start; older recordings have none
  std::vector<SeriesSource> sources;  // in header order; older recordings have none
  // A window cut from a recording (perfmonger cat --from/--to): the whole
  // recording's first item, from which its elapsed times still count.
  std::optional<ItemTime> origin;

  bool legacy() const { return format == "perfmonger-gob"; }
  bool Recorded(size_t member, size_t field) const {
    const std::vector<bool>& r = recorded[member];
    return r.empty() || (field < r.size() && r[field]);
  }
};

// An event line: pause, resume, mark or end (readers skip kinds they do
// not know).
struct RecordingEvent {
  std::string kind;
  int64_t time_ns = 0;
  std::string label;       // mark
  std::string reason;      // end
  std::optional<ClockState> clock = std::nullopt;  // mark, end; none in older recordings
  int64_t mono_ns = 0;     // 0 in legacy recordings
  // scan (playback/reading/scan_event.hh): shared, as phases keep it at both ends
  std::shared_ptr<const ScanEvent> scan = nullptr;
  // procs (playback/reading/proc_table_event.hh)
  std::shared_ptr<const ProcTableEvent> procs = nullptr;
};

}  // namespace pm

// The .pgr header line: RecordingInfo and the sample layout it declares.
#include <algorithm>
#include <optional>
#include <span>

#include "playback/reading/native_reader.hh"
#include "proto/pgr_collector_spec.hh"

namespace pm {
namespace {

using Names = std::span<const std::string_view>;

// Rows and columns a header may declare: far beyond any machine, small
// enough that a hostile header cannot make every sample huge.
constexpr size_t kMaxCount = size_t{1} << 16;

// The first pass: only "format" and "version", so that a header of another
// version is named as such, whatever its other members look like.
int CheckFormatAndVersion(JsonReader& r, std::string_view line) {
  r.Reset(line);
  r.BeginObject();
  std::string format;
  std::optional<int64_t> version;
  for (std::string_view key; r.NextKey(key);) {
    if (key == "format" && r.Peek() == JsonReader::Type::kString)
      format = r.ReadString();
    else if (key == "version" && r.Peek() == JsonReader::Type::kNumber)
      version = r.ReadInt64();
    else
      r.SkipValue();
  }
  r.ExpectEnd();
  if (format != kPgrFormatName)
    throw JsonError("not a perfmonger recording (no \"format\":\"perfmonger-pgr\")", 0);
  if (!version) throw JsonError("header without a version", 0);
  if (*version != kPgrVersion && *version != kPgrDeltaVersion)
    throw JsonError("unsupported pgr version " + std::to_string(*version), 0);
  return static_cast<int>(*version);
}

size_t ReadCount(JsonReader& r) {
  uint64_t n = r.ReadUint64();
  if (n > kMaxCount) r.Fail("count out of range");
  return static_cast<size_t>(n);
}

int64_t ReadNonNegative(JsonReader& r) {
  int64_t v = r.ReadInt64();
  if (v < 0) r.Fail("negative value");
  return v;
}

// ["name",...] -> where each column goes in an array with `known` names.
void ReadColumns(JsonReader& r, Names known, PgrColumns& out) {
  out.declared = true;
  out.to.clear();
  r.BeginArray();
  while (r.NextElement()) {
    if (out.to.size() == kMaxCount) r.Fail("too many columns");
    auto it = std::find(known.begin(), known.end(), r.ReadString());
    out.to.push_back(it == known.end() ? -1 : static_cast<int>(it - known.begin()));
  }
}

// Counts the elements of an array of anything (the cpu collector's ids).
size_t ReadArrayLength(JsonReader& r) {
  size_t n = 0;
  r.BeginArray();
  for (; r.NextElement(); ++n) {
    if (n == kMaxCount) r.Fail("too many rows");
    r.SkipValue();
  }
  return n;
}

void ReadNames(JsonReader& r, std::vector<std::string>& out) {
  out.clear();
  r.BeginArray();
  while (r.NextElement()) {
    if (out.size() == kMaxCount) r.Fail("too many rows");
    out.emplace_back(r.ReadString());
  }
}

// [{"irq":"24",...},...]: the rows' names.
void ReadIrqRows(JsonReader& r, std::vector<std::string>& out) {
  out.clear();
  r.BeginArray();
  while (r.NextElement()) {
    if (out.size() == kMaxCount) r.Fail("too many rows");
    std::string& irq = out.emplace_back();
    r.BeginObject();
    for (std::string_view key; r.NextKey(key);) {
      if (key == "irq") irq = r.ReadString();
      else r.SkipValue();
    }
  }
}

// {"NAME":["value per row",...],...}
void ReadLabels(JsonReader& r, PgrColumns& cols) {
  cols.labels.clear();
  r.BeginObject();
  for (std::string_view key; r.NextKey(key);) {
    auto& [name, values] = cols.labels.emplace_back(std::string(key), std::vector<std::string>{});
    ReadNames(r, values);
  }
}

// "cpus":N: one column per CPU, each its own field.
void ReadCpuColumns(JsonReader& r, PgrColumns& cols) {
  size_t cpus = ReadCount(r);
  cols.declared = true;
  cols.to.resize(cpus);
  for (size_t i = 0; i < cpus; ++i) cols.to[i] = static_cast<int>(i);
  cols.width = cpus;
}

// One of the member's keys besides its columns: the rows, as its PgrRows
// says; false for a key it does not know.
bool ReadRows(JsonReader& r, PgrRows rows, std::string_view key, PgrColumns& cols) {
  if (rows == PgrRows::kCores && key == "cores") {
    size_t cores = ReadArrayLength(r);
    cols.rows.assign(1, "all");
    for (size_t i = 0; i < cores; ++i) cols.rows.push_back(std::to_string(i));
  } else if (rows == PgrRows::kDevices && key == "devices") {
    ReadNames(r, cols.rows);
  } else if (rows == PgrRows::kNamed && key == "rows") {
    ReadNames(r, cols.rows);
  } else if (rows == PgrRows::kPerCpu && key == "rows") {
    ReadIrqRows(r, cols.rows);
  } else if (rows == PgrRows::kNamed && key == "labels") {
    ReadLabels(r, cols);
  } else {
    return false;
  }
  return true;
}

// "sources":[{"fields":[..],"rows":[..],"file":F,"resolution_ns":N},..]
void ReadSources(JsonReader& r, size_t member, std::vector<SeriesSource>& out) {
  r.BeginArray();
  while (r.NextElement()) {
    if (out.size() == kMaxCount) r.Fail("too many sources");
    SeriesSource& s = out.emplace_back();
    s.member = member;
    r.BeginObject();
    for (std::string_view key; r.NextKey(key);) {
      if (key == "fields") ReadNames(r, s.fields);
      else if (key == "rows") ReadNames(r, s.rows);
      else if (key == "file") s.file = r.ReadString();
      else if (key == "resolution_ns") s.resolution_ns = ReadNonNegative(r);
      else r.SkipValue();
    }
  }
}

// A member's declaration: its columns ("fields", or "cpus"), its rows,
// the sources it names.
void ReadMember(JsonReader& r, const PgrMember& member, PgrColumns& cols,
                size_t m, std::vector<SeriesSource>& sources) {
  const bool per_cpu = member.rows == PgrRows::kPerCpu;
  cols = PgrColumns{};
  if (member.rows == PgrRows::kOne) cols.rows.assign(1, "");
  if (member.rows == PgrRows::kCores) cols.rows.assign(1, "all");
  cols.width = member.fields.size();
  r.BeginObject();
  for (std::string_view key; r.NextKey(key);) {
    if (!per_cpu && key == "fields")
      ReadColumns(r, member.fields, cols);
    else if (per_cpu && key == "cpus")
      ReadCpuColumns(r, cols);
    else if (key == "sources")
      ReadSources(r, m, sources);
    else if (!ReadRows(r, member.rows, key, cols))
      r.SkipValue();
  }
  if (!cols.declared)
    r.Fail(per_cpu ? std::string("\"").append(member.key).append("\" without \"cpus\"")
                   : std::string("a collector without \"fields\""));
  for (const auto& [name, values] : cols.labels)
    if (values.size() != cols.rows.size())
      r.Fail("label \"" + name + "\" without one value per row");
}

// Known members are matched by name to the columns their descriptor
// (proto/pgr_collectors.hh) lists.
void ReadCollectors(JsonReader& r, PgrLayout& layout, std::vector<SeriesSource>& sources) {
  r.BeginObject();
  for (std::string_view key; r.NextKey(key);) {
    size_t m = MemberIndexOf(key);
    if (m == MemberCount()) {
      r.SkipValue();  // a collector this reader does not know
      continue;
    }
    ReadMember(r, MemberAt(m), layout.members[m], m, sources);
  }
}

void ReadMeta(JsonReader& r, MetaList& meta) {
  r.BeginObject();
  for (std::string_view key; r.NextKey(key);) {
    std::string k(key);  // the value's string replaces the key's scratch
    meta.emplace_back(std::move(k), std::string(r.ReadString()));
  }
}

// {"t":NS,"mono":NS}: a cut recording's origin.
void ReadOrigin(JsonReader& r, ItemTime& out) {
  r.BeginObject();
  for (std::string_view key; r.NextKey(key);) {
    if (key == "t") out.time_ns = r.ReadInt64();
    else if (key == "mono") out.mono_ns = ReadNonNegative(r);
    else r.SkipValue();
  }
}

}  // namespace

PgrLayout::PgrLayout() : members(MemberCount()) {}

void ReadClockState(JsonReader& r, ClockState& out) {
  out = ClockState{};
  r.BeginObject();
  for (std::string_view key; r.NextKey(key);) {
    if (key == "synced") {
      out.disciplined = true;
      out.synced = r.ReadBool();
    } else if (key == "offset_ns") {
      out.offset_ns = r.ReadInt64();
    } else if (key == "maxerror_us") {
      out.maxerror_us = ReadNonNegative(r);
    } else if (key == "esterror_us") {
      out.esterror_us = ReadNonNegative(r);
    } else if (key == "source") {
      out.source = r.ReadString();
    } else {
      r.SkipValue();
    }
  }
}

void ParsePgrHeader(JsonReader& r, std::string_view line, RecordingInfo& info,
                    PgrLayout& layout) {
  int version = CheckFormatAndVersion(r, line);
  info = RecordingInfo{};
  layout = PgrLayout{};
  info.format = kPgrFormatName;
  info.version = version;
  r.Reset(line);
  r.BeginObject();
  for (std::string_view key; r.NextKey(key);) {
    if (key == "host") {
      info.host = r.ReadString();
    } else if (key == "kernel") {
      info.kernel = r.ReadString();
    } else if (key == "start_ns") {
      info.start_ns = r.ReadInt64();
    } else if (key == "interval_ns") {
      info.interval_ns = ReadNonNegative(r);
    } else if (key == "num_core") {
      info.num_core = static_cast<int>(ReadCount(r));
    } else if (key == "pid" && r.Peek() == JsonReader::Type::kNumber) {
      info.pid = r.ReadInt64();
    } else if (key == "collectors") {
      ReadCollectors(r, layout, info.sources);
    } else if (key == "meta") {
      ReadMeta(r, info.meta);
    } else if (key == "clock") {
      ReadClockState(r, info.clock.emplace());
    } else if (key == "origin") {
      ReadOrigin(r, info.origin.emplace());
    } else {
      r.SkipValue();
    }
  }
  r.ExpectEnd();
}

}  // namespace pm

// The .pgr header line: RecordingInfo and the sample layout it declares.
#include <algorithm>
#include <optional>
#include <span>

#include "playback/native_reader.hh"

namespace pm {
namespace {

using Names = std::span<const std::string_view>;

// Rows and columns a header may declare: far beyond any machine, small
// enough that a hostile header cannot make every sample huge.
constexpr size_t kMaxCount = size_t{1} << 16;

bool IsAllDigits(std::string_view s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

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

// {"fields":[...], <other key>: ...}; `other` reads the collector's extra
// members and returns false for keys it does not know.
template <class Other>
void ReadCollector(JsonReader& r, Names known, PgrColumns& cols, Other other) {
  r.BeginObject();
  for (std::string_view key; r.NextKey(key);) {
    if (key == "fields")
      ReadColumns(r, known, cols);
    else if (!other(key))
      r.SkipValue();
  }
  if (!cols.declared) r.Fail("a collector without \"fields\"");
}

void ReadIntrRows(JsonReader& r, std::vector<PgrLayout::IntrRow>& out) {
  out.clear();
  r.BeginArray();
  while (r.NextElement()) {
    if (out.size() == kMaxCount) r.Fail("too many rows");
    PgrLayout::IntrRow& row = out.emplace_back();
    r.BeginObject();
    for (std::string_view key; r.NextKey(key);) {
      if (key == "irq")
        row.irq = r.ReadString();
      else
        r.SkipValue();
    }
    row.numbered = IsAllDigits(row.irq);
  }
}

void ReadIntr(JsonReader& r, PgrLayout& layout) {
  PgrColumns& cols = layout.of("intr");
  cols.declared = true;
  bool has_cpus = false;
  r.BeginObject();
  for (std::string_view key; r.NextKey(key);) {
    if (key == "cpus") {
      size_t cpus = ReadCount(r);
      cols.to.resize(cpus);
      for (size_t i = 0; i < cpus; ++i) cols.to[i] = static_cast<int>(i);
      has_cpus = true;
    } else if (key == "rows") {
      ReadIntrRows(r, layout.intr_rows);
    } else {
      r.SkipValue();
    }
  }
  if (!has_cpus) r.Fail("\"intr\" without \"cpus\"");
}

// A collector's members besides "fields": the rows its arrays have.
bool ReadRowsDeclaration(JsonReader& r, std::string_view collector, std::string_view key,
                         PgrLayout& layout) {
  if (collector == "cpu" && key == "cores") {
    layout.cores = ReadArrayLength(r);
  } else if ((collector == "disk" || collector == "net") && key == "devices") {
    ReadNames(r, collector == "disk" ? layout.disks : layout.nets);
  } else if (size_t t = RowTableIndex(collector); t < kRowTableCount && key == "rows") {
    ReadNames(r, layout.table_rows[t]);
  } else {
    return false;
  }
  return true;
}

// Known members are matched by name to the columns their descriptor
// (proto/pgr_collectors.hh) lists.
void ReadCollectors(JsonReader& r, PgrLayout& layout) {
  r.BeginObject();
  for (std::string_view key; r.NextKey(key);) {
    const PgrMember* member = FindPgrMember(key);
    if (member == nullptr) {
      r.SkipValue();  // a collector this reader does not know
    } else if (member->key == "intr") {
      ReadIntr(r, layout);
    } else {
      ReadCollector(r, member->fields, layout.of(member->key), [&](std::string_view k) {
        return ReadRowsDeclaration(r, member->key, k, layout);
      });
    }
  }
}

void ReadMeta(JsonReader& r, MetaList& meta) {
  r.BeginObject();
  for (std::string_view key; r.NextKey(key);) {
    std::string k(key);  // the value's string replaces the key's scratch
    meta.emplace_back(std::move(k), std::string(r.ReadString()));
  }
}

}  // namespace

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
    } else if (key == "start_ns") {
      info.start_ns = r.ReadInt64();
    } else if (key == "interval_ns") {
      info.interval_ns = ReadNonNegative(r);
    } else if (key == "num_core") {
      info.num_core = static_cast<int>(ReadCount(r));
    } else if (key == "collectors") {
      ReadCollectors(r, layout);
    } else if (key == "meta") {
      ReadMeta(r, info.meta);
    } else {
      r.SkipValue();
    }
  }
  r.ExpectEnd();
}

}  // namespace pm

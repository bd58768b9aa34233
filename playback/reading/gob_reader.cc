#include "playback/reading/gob_reader.hh"

#include <cstdint>
#include <string_view>
#include <utility>

#include "playback/reading/gob_record.hh"

namespace pm {
namespace {

// A top-level value of a non-struct type travels as a lone field: a 0
// delta first. Skips either kind.
void SkipTopLevel(const gob::TypeRegistry& types, gob::WireReader& r,
                  gob::TypeId id) {
  const gob::WireType* t = types.Find(id, r);
  if ((t == nullptr || t->kind != gob::Kind::kStruct) && r.Uint() != 0)
    r.Fail("bad top-level value");
  gob::SkipValue(types, r, id);
}

void ExpectEnd(const gob::WireReader& r) {
  if (!r.empty()) r.Fail("unexpected bytes after a value");
}

}  // namespace

LegacyReader::LegacyReader(InputStream& in) : messages_(in) {
  info_.format = "perfmonger-gob";
  gob::NoteLegacyFields(info_);
  if (!ReadHeaders()) {
    truncated_ = true;
    return;
  }
  RawSample first;
  if (ReadRecord(first)) {
    info_.num_core = gob::NumCore(first);
    first_ = std::move(first);
  }
}

bool LegacyReader::Next(RawSample& out) {
  if (!first_) return ReadRecord(out);
  out = std::move(*first_);
  first_.reset();
  return true;
}

std::optional<LegacyReader::Value> LegacyReader::NextValue() {
  for (;;) {
    std::string_view body;
    switch (messages_.Next(body)) {
      case gob::MessageReader::Result::kEnd:
        return std::nullopt;
      case gob::MessageReader::Result::kTruncated:
        truncated_ = true;
        return std::nullopt;
      case gob::MessageReader::Result::kMessage:
        break;
    }
    gob::WireReader r(body, messages_.body_offset());
    gob::TypeId id = r.Int();
    if (id >= 0) return Value{r, id};
    types_.Define(id == INT64_MIN ? 0 : -id, r);
    ExpectEnd(r);
  }
}

bool LegacyReader::ReadHeaders() {
  std::optional<Value> common = NextValue();
  if (!common) return false;
  ReadCommonHeader(*common);
  std::optional<Value> linux_header = NextValue();  // devices: unused
  if (!linux_header) return false;
  SkipTopLevel(types_, linux_header->r, linux_header->id);
  ExpectEnd(linux_header->r);
  return true;
}

// CommonHeader{Platform int, Hostname string, StartTime time.Time}
void LegacyReader::ReadCommonHeader(Value& v) {
  gob::StructFields fields(types_, v.r, v.id);
  while (const gob::Field* f = fields.Next()) {
    if (f->name == "Hostname")
      info_.host = gob::ReadString(v.r, f->id);
    else if (f->name == "StartTime")
      info_.start_ns = gob::ReadTime(types_, v.r, f->id);
    else
      gob::SkipValue(types_, v.r, f->id);
  }
  ExpectEnd(v.r);
}

bool LegacyReader::ReadRecord(RawSample& out) {
  std::optional<Value> v = NextValue();
  if (!v) return false;
  out.time_ns = out.mono_ns = 0;
  for (MemberRows& m : out.members) m.Clear();
  gob::DecodeStatRecord(types_, v->r, v->id, out);
  ExpectEnd(v->r);
  return true;
}

}  // namespace pm

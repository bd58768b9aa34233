#include "playback/reading/gob_types.hh"

#include "proto/text.hh"

namespace pm::gob {
namespace {

// Gob reserves the ids below this for its own types.
constexpr TypeId kFirstUserId = 64;
// PerfMonger defines about twenty types; a stream with this many is garbage.
constexpr size_t kMaxTypes = 4096;
// Its values nest five deep; this only stops a hostile recursive type.
constexpr int kMaxDepth = 32;
// Its largest struct has 29 fields.
constexpr size_t kMaxFields = 4096;

// Calls on_field(n) for each field number sent in a struct value whose
// type has `count` fields: gob's own bootstrap types, fixed by the format.
template <class OnField>
void ForEachField(WireReader& r, int count, OnField&& on_field) {
  for (int number = -1;;) {
    uint64_t at = r.offset();
    uint64_t delta = r.Uint();
    if (delta == 0) return;
    if (delta > static_cast<uint64_t>(count - 1 - number))
      Fail("bad field number in a type definition", at);
    number += static_cast<int>(delta);
    on_field(number);
  }
}

// CommonType{Name string, Id typeId}
void ReadCommon(WireReader& r, WireType& t) {
  ForEachField(r, 2, [&](int n) {
    if (n == 0)
      t.name = r.Bytes();
    else
      r.Int();
  });
}

// []*fieldType, fieldType{Name string, Id typeId}
void ReadFieldList(WireReader& r, std::vector<Field>& fields) {
  uint64_t at = r.offset();
  size_t n = r.Count();
  if (n > kMaxFields) Fail("too many struct fields", at);
  fields.resize(n);
  for (Field& f : fields)
    ForEachField(r, 2, [&](int i) {
      if (i == 0)
        f.name = r.Bytes();
      else
        f.id = r.Int();
    });
}

// The body of one of wireType's fields: arrayType{CommonType, Elem, Len},
// sliceType{CommonType, Elem}, structType{CommonType, Field},
// mapType{CommonType, Key, Elem}, gobEncoderType{CommonType}.
int FieldCount(Kind kind) {
  switch (kind) {
    case Kind::kArray:
    case Kind::kMap:
      return 3;
    case Kind::kGobEncoder:
      return 1;
    default:  // slice, struct
      return 2;
  }
}

void ReadTypeBody(WireReader& r, WireType& t) {
  ForEachField(r, FieldCount(t.kind), [&](int n) {
    if (n == 0) return ReadCommon(r, t);
    if (t.kind == Kind::kStruct) return ReadFieldList(r, t.fields);
    if (t.kind == Kind::kMap && n == 1)
      t.key = r.Int();
    else if (n == 1 || t.kind == Kind::kMap)
      t.elem = r.Int();
    else
      r.Int();  // an array's length: its values carry their count
  });
}

// wireType's fields, in order: ArrayT SliceT StructT MapT GobEncoderT
// BinaryMarshalerT TextMarshalerT (the last two encode like GobEncoderT).
Kind KindOfWireField(int n) {
  constexpr Kind kKinds[] = {Kind::kArray, Kind::kSlice, Kind::kStruct,
                             Kind::kMap, Kind::kGobEncoder};
  return kKinds[n < 4 ? n : 4];
}

void SkipStruct(const TypeRegistry& types, WireReader& r, TypeId id,
                int depth) {
  StructFields fields(types, r, id);
  while (const Field* f = fields.Next()) SkipValue(types, r, f->id, depth + 1);
}

}  // namespace

void TypeRegistry::Define(TypeId id, WireReader& r) {
  uint64_t at = r.offset();
  if (id < kFirstUserId || types_.contains(id))
    Fail("bad or duplicate type id " + std::to_string(id), at);
  if (types_.size() >= kMaxTypes) Fail("too many type definitions", at);
  WireType t;
  int kinds = 0;
  ForEachField(r, 7, [&](int n) {
    t.kind = KindOfWireField(n);
    ++kinds;
    ReadTypeBody(r, t);
  });
  if (kinds != 1) Fail("bad type definition", at);
  types_.emplace(id, std::move(t));
}

const WireType* TypeRegistry::Find(TypeId id, const WireReader& r) const {
  if (id >= kBool && id <= kComplex) return nullptr;
  if (id == kInterface) r.Fail("interface values are not supported");
  auto it = types_.find(id);
  if (it == types_.end()) r.Fail("undefined type id " + std::to_string(id));
  return &it->second;
}

const WireType& TypeRegistry::Struct(TypeId id, const WireReader& r) const {
  const WireType* t = Find(id, r);
  if (t == nullptr || t->kind != Kind::kStruct)
    r.Fail("type id " + std::to_string(id) + " is not a struct");
  return *t;
}

const Field* StructFields::Next() {
  uint64_t at = r_.offset();
  uint64_t delta = r_.Uint();
  if (delta == 0) return nullptr;
  auto left = static_cast<uint64_t>(static_cast<int64_t>(type_.fields.size()) -
                                    1 - number_);
  if (delta > left)
    Fail("bad field number in a " + Printable(std::string_view(type_.name).substr(0, 64)) +
             " value", at);
  number_ += static_cast<int64_t>(delta);
  return &type_.fields[static_cast<size_t>(number_)];
}

void SkipValue(const TypeRegistry& types, WireReader& r, TypeId id, int depth) {
  if (depth > kMaxDepth) r.Fail("values nested too deeply");
  if (id == kString || id == kByteSlice) return void(r.Bytes());
  if (id == kComplex) r.Uint();
  const WireType* t = types.Find(id, r);
  if (t == nullptr) return void(r.Uint());
  switch (t->kind) {
    case Kind::kStruct:
      return SkipStruct(types, r, id, depth);
    case Kind::kGobEncoder:
      return void(r.Bytes());
    case Kind::kMap:
      for (size_t n = r.Count(); n > 0; --n) {
        SkipValue(types, r, t->key, depth + 1);
        SkipValue(types, r, t->elem, depth + 1);
      }
      return;
    default:  // slice, array
      for (size_t n = r.Count(); n > 0; --n)
        SkipValue(types, r, t->elem, depth + 1);
  }
}

uint64_t ReadCounter(WireReader& r, TypeId id) {
  return static_cast<uint64_t>(ReadInt(r, id));
}

int64_t ReadInt(WireReader& r, TypeId id) {
  if (id == kInt) return r.Int();
  if (id == kUint) return static_cast<int64_t>(r.Uint());
  r.Fail("expected an integer");
}

std::string_view ReadString(WireReader& r, TypeId id) {
  if (id != kString && id != kByteSlice) r.Fail("expected a string");
  return r.Bytes();
}

size_t ReadSliceHeader(const TypeRegistry& types, WireReader& r, TypeId id,
                       TypeId& elem) {
  const WireType* t = types.Find(id, r);
  if (t == nullptr || (t->kind != Kind::kSlice && t->kind != Kind::kArray))
    r.Fail("expected a slice");
  elem = t->elem;
  return r.Count();
}

std::string_view ReadEncoded(const TypeRegistry& types, WireReader& r,
                             TypeId id) {
  const WireType* t = types.Find(id, r);
  if (t == nullptr || t->kind != Kind::kGobEncoder)
    r.Fail("expected a GobEncoder value");
  return r.Bytes();
}

}  // namespace pm::gob

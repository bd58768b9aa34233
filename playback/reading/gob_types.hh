// Go encoding/gob types and values, driven by the stream's own type
// definitions, so a decoder can match struct fields by name and skip what it
// does not know.
//
// A message whose type id is negative defines type -id with a wireType (a
// struct, slice, array, map or GobEncoder type, its name and its fields'
// names and type ids); other messages carry a value of an already defined
// or built-in type. A struct value is a sequence of (field-number delta,
// field value), ended by a 0 delta; zero fields and nil pointers are left
// out, and a pointer travels as the value it points to. Slices and arrays
// are a count then the elements; maps a count then key, element pairs; a
// GobEncoder value (time.Time) is a byte slice.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "playback/reading/gob_wire.hh"

namespace pm::gob {

using TypeId = int64_t;

// Gob's built-in type ids.
inline constexpr TypeId kBool = 1, kInt = 2, kUint = 3, kFloat = 4,
                        kByteSlice = 5, kString = 6, kComplex = 7,
                        kInterface = 8;

enum class Kind { kStruct, kSlice, kArray, kMap, kGobEncoder };

struct Field {
  std::string name;
  TypeId id = 0;
};

struct WireType {
  Kind kind = Kind::kStruct;
  std::string name;           // Go's, package prefix and all: informative only
  std::vector<Field> fields;  // kStruct
  TypeId key = 0;             // kMap
  TypeId elem = 0;            // kSlice, kArray, kMap
};

class TypeRegistry {
 public:
  // Reads the wireType that follows type id `-id` in a message.
  void Define(TypeId id, WireReader& r);
  // Fails naming the id when it is neither built in nor defined.
  const WireType* Find(TypeId id, const WireReader& r) const;
  // The definition of a struct type; fails for any other type.
  const WireType& Struct(TypeId id, const WireReader& r) const;

 private:
  std::unordered_map<TypeId, WireType> types_;
};

// Iterates over the fields sent in one struct value.
class StructFields {
 public:
  StructFields(const TypeRegistry& types, WireReader& r, TypeId id)
      : r_(r), type_(types.Struct(id, r)) {}
  // The next field sent, or nullptr after the closing 0 delta. The caller
  // must consume the field's value before asking for the next one.
  const Field* Next();

 private:
  WireReader& r_;
  const WireType& type_;
  int64_t number_ = -1;
};

// Skips one value of type `id`.
void SkipValue(const TypeRegistry& types, WireReader& r, TypeId id,
               int depth = 0);

// An int or uint value, as the kernel counter it holds.
uint64_t ReadCounter(WireReader& r, TypeId id);
int64_t ReadInt(WireReader& r, TypeId id);
std::string_view ReadString(WireReader& r, TypeId id);
// A slice's (or array's) element count; `elem` gets the element type.
size_t ReadSliceHeader(const TypeRegistry& types, WireReader& r, TypeId id,
                       TypeId& elem);
// A GobEncoder value's bytes.
std::string_view ReadEncoded(const TypeRegistry& types, WireReader& r,
                             TypeId id);

}  // namespace pm::gob

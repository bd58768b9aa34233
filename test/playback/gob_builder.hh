// Builds Go encoding/gob streams by hand, for the legacy reader's tests:
// the type and value shapes PerfMonger's Go program would send, and shapes
// it never would (hostile ones).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pm::test {

inline std::string GobUint(uint64_t v) {
  if (v < 0x80) return std::string(1, static_cast<char>(v));
  std::string bytes;
  for (; v != 0; v >>= 8)
    bytes.insert(bytes.begin(), static_cast<char>(v & 0xff));
  return static_cast<char>(256 - bytes.size()) + bytes;
}

inline std::string GobInt(int64_t i) {
  auto u = static_cast<uint64_t>(i);
  return GobUint(i < 0 ? (~u << 1) | 1 : u << 1);
}

inline std::string GobString(std::string_view s) {
  return GobUint(s.size()) + std::string(s);
}

// A struct value: fields in increasing number, then the 0 delta.
class GobStruct {
 public:
  GobStruct& Field(int number, const std::string& encoded) {
    bytes_ += GobUint(static_cast<uint64_t>(number - last_)) + encoded;
    last_ = number;
    return *this;
  }
  std::string End() const { return bytes_ + '\0'; }

 private:
  std::string bytes_;
  int last_ = -1;
};

// A slice (or map) value from already encoded elements.
inline std::string GobSlice(const std::vector<std::string>& elems) {
  std::string out = GobUint(elems.size());
  for (const std::string& e : elems) out += e;
  return out;
}

// time.Time's GobEncode: version 1 (15 bytes) or 2 (16), UTC.
inline std::string GobTime(int64_t unix_sec, int32_t nsec, int version = 1) {
  std::string blob(1, static_cast<char>(version));
  auto sec = static_cast<uint64_t>(unix_sec + 62'135'596'800);
  for (int i = 7; i >= 0; --i) blob += static_cast<char>(sec >> (8 * i));
  for (int i = 3; i >= 0; --i)
    blob += static_cast<char>(static_cast<uint32_t>(nsec) >> (8 * i));
  blob += "\xff\xff";  // offset -1: UTC
  if (version == 2) blob += '\0';
  return GobString(blob);
}

using GobFields = std::vector<std::pair<std::string, int64_t>>;

class GobStream {
 public:
  void Message(const std::string& body) {
    bytes_ += GobUint(body.size()) + body;
  }
  void Value(int64_t id, const std::string& value) {
    Message(GobInt(id) + value);
  }

  void DefineStruct(int64_t id, std::string_view name,
                    const GobFields& fields) {
    std::vector<std::string> list;
    for (const auto& [field, type] : fields)
      list.push_back(
          GobStruct().Field(0, GobString(field)).Field(1, GobInt(type)).End());
    Define(
        id, 2,
        GobStruct().Field(0, Common(name, id)).Field(1, GobSlice(list)).End());
  }
  void DefineSlice(int64_t id, std::string_view name, int64_t elem) {
    Define(id, 1,
           GobStruct().Field(0, Common(name, id)).Field(1, GobInt(elem)).End());
  }
  void DefineArray(int64_t id, std::string_view name, int64_t elem,
                   int64_t len) {
    Define(id, 0,
           GobStruct()
               .Field(0, Common(name, id))
               .Field(1, GobInt(elem))
               .Field(2, GobInt(len))
               .End());
  }
  void DefineMap(int64_t id, std::string_view name, int64_t key, int64_t elem) {
    Define(id, 3,
           GobStruct()
               .Field(0, Common(name, id))
               .Field(1, GobInt(key))
               .Field(2, GobInt(elem))
               .End());
  }
  void DefineGobEncoder(int64_t id, std::string_view name) {
    Define(id, 4, GobStruct().Field(0, Common(name, id)).End());
  }

  const std::string& bytes() const { return bytes_; }

 private:
  static std::string Common(std::string_view name, int64_t id) {
    return GobStruct().Field(0, GobString(name)).Field(1, GobInt(id)).End();
  }
  // wireType{ArrayT, SliceT, StructT, MapT, GobEncoderT, ...}
  void Define(int64_t id, int wire_field, const std::string& body) {
    Message(GobInt(-id) + GobStruct().Field(wire_field, body).End());
  }

  std::string bytes_;
};

}  // namespace pm::test

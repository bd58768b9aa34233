// The pieces of play's JSON the reports share: numbers written into a
// stack buffer and appended in one piece (play writes a line in about a
// microsecond), and PerfMonger's device objects
//   {"devices":["a","b"],"a":{..},"b":{..},"total":{..}}
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "proto/json.hh"
#include "proto/text.hh"

namespace pm {

// Room for one `,"key":` of play (none is longer than 24 bytes) and its
// value.
inline constexpr size_t kFixedMember = 24 + kFixedTextMax;
inline constexpr size_t kUintMember = 24 + kUintTextMax;

// `,"key":` (or `{"key":`) and v with `precision` decimals.
inline char* Member(char* p, std::string_view key, double v, int precision = 2) {
  return WriteFixed(Put(p, key), v, precision);
}

// [1.00,2.00,...]
void AppendDoubles(std::string& out, std::span<const double> v);

// Names no longer than this with nothing to escape are written on the
// stack with what surrounds them; others go through AppendJsonString.
inline constexpr size_t kShortName = 64;

inline bool IsShortName(std::string_view name) {
  return name.size() <= kShortName && IsJsonVerbatim(name);
}

// "a","b",...: the short names gathered into one append per kilobyte.
template <class NameAt>
void AppendNames(std::string& out, size_t n, NameAt name_at) {
  char buf[1024];
  char* p = buf;
  for (size_t i = 0; i < n; ++i) {
    std::string_view name = name_at(i);
    if (static_cast<size_t>(buf + sizeof buf - p) < kShortName + 3 || !IsShortName(name)) {
      AppendWritten(out, buf, p);
      p = buf;
    }
    if (i > 0) p = Put(p, ',');
    if (!IsShortName(name)) {
      AppendWritten(out, buf, p);
      p = buf;
      AppendJsonString(out, name);
      continue;
    }
    p = Put(Put(Put(p, '"'), name), '"');
  }
  AppendWritten(out, buf, p);
}

// {"devices":[names],"<name>":{..},...,"total":{..}} for `n` devices:
// name_at(i), put_entry(p, i) and put_total(p), each of these writing at
// most kEntryMax bytes at p and returning its end.
template <size_t kEntryMax, class NameAt, class PutEntry, class PutTotal>
void AppendDevices(std::string& out, size_t n, NameAt name_at, PutEntry put_entry,
                   PutTotal put_total) {
  out.append("{\"devices\":[");
  AppendNames(out, n, name_at);
  out.push_back(']');
  for (size_t i = 0; i < n; ++i) {
    std::string_view name = name_at(i);
    char buf[kShortName + 4 + kEntryMax];  // `,"name":{..}` in one append
    char* p = buf;
    if (IsShortName(name)) {
      p = Put(Put(Put(p, ",\""), name), "\":");
    } else {
      out.push_back(',');
      AppendJsonKey(out, name);
    }
    AppendWritten(out, buf, put_entry(p, i));
  }
  char buf[16 + kEntryMax];
  AppendWritten(out, buf, put_total(Put(buf, ",\"total\":")));
  out.push_back('}');
}

}  // namespace pm

// What the CSV export promises: each column is play's value at the JSON
// path the column is named after (`cpu.cores.1.sys`, `disk.sda.riops`).
#pragma once

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "test/process/json.hh"

namespace pm::test {

inline std::vector<std::string> SplitCsv(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (char c : line) {
    if (c == '"') quoted = !quoted;
    else if (c == ',' && !quoted) out.emplace_back();
    else out.back().push_back(c);
  }
  return out;
}

// The value at `path` (dots between keys, array indexes as numbers).
inline const JsonValue& AtPath(const JsonValue& root, const std::string& path) {
  const JsonValue* v = &root;
  size_t at = 0;
  while (at <= path.size()) {
    size_t dot = path.find('.', at);
    std::string key = path.substr(at, dot == std::string::npos ? std::string::npos : dot - at);
    if (v->type() == JsonValue::Type::kArray) v = &v->at(std::stoul(key));
    else v = &(*v)[key];
    if (dot == std::string::npos) break;
    at = dot + 1;
  }
  return *v;
}

// Every cell of `row` (under `head`) is play's number in `play_line`, or
// empty where play has no such value.
inline void CheckRowIsPlay(const std::vector<std::string>& head, const std::vector<std::string>& row,
                           const std::string& play_line) {
  REQUIRE(head.size() == row.size());
  Json play(play_line);
  for (size_t i = 0; i < head.size(); ++i) {
    CAPTURE(head[i]);
    const JsonValue& v = AtPath(play.root(), head[i]);
    if (!v.exists() || v.type() == JsonValue::Type::kNull) {
      CHECK(row[i].empty());
      continue;
    }
    REQUIRE(v.is_number());
    CHECK(std::stod(row[i]) == double(v));
  }
}

}  // namespace pm::test

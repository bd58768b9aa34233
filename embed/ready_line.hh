// The two lines the embedding library reads from the recorder: the ready
// line and a command's reply (DESIGN §4, §5). Only the fields the library
// reports are extracted; the recorder writes them, so a missing field is a
// protocol error, not something to recover from.
#pragma once

#include <cstdint>
#include <string>

namespace pm::embed {

// {"event":"ready",...,"output":"...","start_time":"..."}: true when the
// line is a ready event carrying both strings.
bool ParseReadyLine(const std::string& line, std::string* output, std::string* start_time);

// {"seq":7,"cmd":"status","ok":true,"state":"paused","samples":12,...} or
// {"seq":8,"cmd":"paus","ok":false,"error":"unknown_command"}.
struct Reply {
  uint64_t seq = 0;
  bool ok = false;
  std::string state, error;  // error: the code of a refusal
  uint64_t samples = 0, missed_ticks = 0, bytes_out = 0;
  // mark and stop: the closed phase's cost of the system under test
  bool has_cost = false;
  uint64_t cost[8] = {};  // in kReplyCostKeys' order
};

// The members of a reply's "cost" object, in perfmonger_cost's order.
inline constexpr const char* kReplyCostKeys[8] = {
    "cpu_ns", "run_wait_ns", "read_bytes", "write_bytes", "minflt", "majflt", "ctxsw",
    "processes"};

// False when the line carries no "seq" (not a reply).
bool ParseReply(const std::string& line, Reply* reply);

// The decoded value of the JSON string member `key` in a flat object, or
// false when there is none (exposed for tests).
bool StringMember(const std::string& json, const std::string& key, std::string* value);
// The value of the unsigned integer member `key`, or false.
bool UintMember(const std::string& json, const std::string& key, uint64_t* value);

}  // namespace pm::embed

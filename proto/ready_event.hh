// The ready line written once to --ready-fd (seeds/embedding.md §2):
//   {"event":"ready","version":1,"pid":P,"output":"/abs/path",
//    "start_time":"2026-11-29T08:07:30.123456Z"}\n
// Schema version 1 keeps these five fields first and in this order; later
// fields may follow, so readers must ignore keys they do not know.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace pm {

inline constexpr int kReadyEventVersion = 1;

// `state` ("recording" or "paused"), when given, follows the five fields:
// a driver with a command fd learns whether --start-paused took effect.
std::string EncodeReadyLine(int pid, std::string_view output,
                            int64_t start_realtime_ns, std::string_view state = {});

}  // namespace pm

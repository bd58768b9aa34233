// The process blocks of live's table and play --table (--record-procs):
// a header line, then a row per process, busiest first
// (playback/outputs/proc_top_rows.hh). Read back from the lines a terminal or a
// pipe showed.
#pragma once

#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <vector>

namespace pm::test {

inline constexpr std::string_view kProcHeader =
    "    PID USER      %CPU  READ/s WRITE/s    RSS COMMAND";

struct ProcLine {
  long pid = 0;
  std::string user;
  double cpu = 0;
  std::string read, write, rss, comm;
};

inline std::string Trimmed(std::string_view s) {
  size_t a = s.find_first_not_of(' '), b = s.find_last_not_of(' ');
  return a == std::string_view::npos ? "" : std::string(s.substr(a, b - a + 1));
}

// "%7u %-8s %6.1f %7s %7s %6s COMM"
inline ProcLine ParseProcLine(const std::string& line) {
  CAPTURE(line);
  REQUIRE(line.size() > 47);
  ProcLine p;
  p.pid = std::stol(line.substr(0, 7));
  p.user = Trimmed(line.substr(8, 8));
  p.cpu = std::stod(line.substr(17, 6));
  p.read = Trimmed(line.substr(24, 7));
  p.write = Trimmed(line.substr(32, 7));
  p.rss = Trimmed(line.substr(40, 6));
  p.comm = line.substr(47);
  return p;
}

// Every block in `lines`: the rows under each header.
inline std::vector<std::vector<ProcLine>> ProcBlocks(const std::vector<std::string>& lines) {
  std::vector<std::vector<ProcLine>> blocks;
  bool in = false;
  for (const std::string& line : lines) {
    if (line == kProcHeader) {
      blocks.emplace_back();
      in = true;
    } else if (in && line.size() > 47 && line[7] == ' ' && line.find('|') == std::string::npos) {
      blocks.back().push_back(ParseProcLine(line));
    } else {
      in = false;
    }
  }
  return blocks;
}

// Each block at most `top` rows, by %CPU, busiest first.
inline void CheckBlocks(const std::vector<std::vector<ProcLine>>& blocks, size_t top) {
  for (const std::vector<ProcLine>& block : blocks) {
    CHECK(!block.empty());
    CHECK(block.size() <= top);
    for (size_t i = 1; i < block.size(); ++i) CHECK(block[i].cpu <= block[i - 1].cpu);
  }
}

}  // namespace pm::test

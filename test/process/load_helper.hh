// test/process/load_helper.c driven from a test: real CPU, memory and
// O_DIRECT writes on command, each acknowledged once done (test_stats.cc,
// test_phase_cost.cc).
#pragma once

#include <doctest/doctest.h>

#include <chrono>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "common/io.hh"
#include "test/process/recording.hh"
#include "test/process/spawn.hh"

namespace pm::test {

// /proc/PID/schedstat's run time: what the kernel counted for the pid.
inline double KernelCpuSeconds(pid_t pid) {
  std::string text = ReadFileBytes("/proc/" + std::to_string(pid) + "/schedstat");
  return std::strtod(text.c_str(), nullptr) / 1e9;
}

// test/process/load_helper.c, its commands on a pipe, its replies on fd 3.
// Constructed, it has started: its start-up CPU is behind it.
class LoadHelper {
 public:
  explicit LoadHelper(const std::string& file) {
    Pipe in = MakePipe(), out = MakePipe();
    SpawnOptions o;
    o.program = std::getenv("LOAD_HELPER");
    o.args = {file};
    o.stdin_fd = std::move(in.read_end);
    o.fds.emplace_back(3, std::move(out.write_end));
    child_.emplace(std::move(o));
    to_ = std::move(in.write_end);
    from_ = LineInput(std::move(out.read_end));
    REQUIRE(Do('h') == 'h');
  }
  // Sends `letter`, returns its reply's letter once the load is done.
  char Do(char letter) {
    const char line[2] = {letter, '\n'};
    WriteAll(to_.Get(), std::string_view(line, 2));
    std::optional<std::string> reply = from_.ReadLine(After(std::chrono::seconds(60)));
    REQUIRE((reply && !reply->empty()));
    return (*reply)[0];
  }
  pid_t pid() const { return child_->pid(); }
  void End() {
    to_.Reset();
    CHECK(child_->Wait().code == 0);
  }

 private:
  std::optional<Child> child_;
  UniqueFd to_;
  LineInput from_;
};

}  // namespace pm::test

// A Recorder on a fake /proc tree and a manual clock, stepped by the test
// (test_recorder.cc, test_recorder_states.cc), and its output read back.
#pragma once

#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/io.hh"
#include "daemon/recorder.hh"
#include "playback/reading/delta_decoder.hh"
#include "test/daemon/manual_clock.hh"
#include "test/daemon/test_util.hh"

namespace pm::test {

inline constexpr int64_t kMs = 1'000'000;
inline constexpr int64_t kT0 = ManualClock::kStartMono;

struct Line {
  std::string text;
  bool sample() const { return text.starts_with("{\"t\":"); }
  bool event(const std::string& kind) const {
    return text.starts_with("{\"event\":\"" + kind + "\"");
  }
  int64_t Int(const std::string& key) const {
    size_t at = text.find("\"" + key + "\":");
    REQUIRE(at != std::string::npos);
    return std::stoll(text.substr(at + key.size() + 3));
  }
  bool Has(const std::string& fragment) const { return text.find(fragment) != std::string::npos; }
};

// A recorder on the fake tree proc-small writing plain text; -i 100ms.
struct Stepped {
  TempDir tree{"proc-small"};
  ManualClock clock;
  RecordConfig config;
  Pipe cmd = MakePipe();
  Pipe ack = MakePipe();
  Recorder recorder{clock};

  // `output`: instead of out.pgr in the tree.
  explicit Stepped(int64_t timeout_ns = 0, int64_t start_delay_ns = 0, bool commands = false,
                   const std::string& output = {}) {
    config.output = output.empty() ? (tree.path() / "out.pgr").string() : output;
    config.no_gzip = true;
    config.root = tree.path().string();
    config.interval_ns = 100 * kMs;
    config.timeout_ns = timeout_ns;
    config.start_delay_ns = start_delay_ns;
    if (commands) {  // the recorder owns these ends
      config.cmd_fd = cmd.read_end.Release();
      config.ack_fd = ack.write_end.Release();
      fcntl(ack.read_end.Get(), F_SETFL, O_NONBLOCK);  // a command without a reply
    }
    recorder.Setup(config);
    recorder.Start();
  }
  // Sends `line` and returns its reply (empty: none).
  std::string Command(const std::string& line) {
    WriteAll(cmd.write_end.Get(), line + "\n");
    recorder.Poll();  // the bytes are in the pipe: handled in this iteration
    char buf[4096];
    ssize_t n = ::read(ack.read_end.Get(), buf, sizeof buf);
    return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
  }
  // As v1 text: the default v2's difference lines rebuilt, as `cat` does.
  std::vector<Line> Lines() const {
    std::vector<Line> lines;
    std::string text = ReadFile(config.output);
    DeltaDecoder v2;
    size_t start = 0;
    for (size_t nl; (nl = text.find('\n', start)) != std::string::npos; start = nl + 1)
      lines.push_back({std::string(v2.Decode(std::string_view(text).substr(start, nl - start)))});
    return lines;
  }
  std::vector<int64_t> SampleMonos() const {
    std::vector<int64_t> monos;
    for (const Line& l : Lines())
      if (l.sample()) monos.push_back(l.Int("mono") - kT0);
    return monos;
  }
};

}  // namespace pm::test

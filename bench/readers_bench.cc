// perfmonger-bench-readers: how fast `play` and `summary` read a long
// recording, and how much memory they keep (issue 3's figures).
//
// Builds a 100,000-sample recording from one real sample of this machine
// (recorded first), its clocks advanced 10 ms a line and every line
// flushed through the compressor as the recorder does, in gzip and zstd;
// then times `perfmonger play FILE >/dev/null` and `perfmonger summary
// FILE >/dev/null` (wall clock, wait4's rusage for CPU and peak RSS).
// The floor `summary` is held to (issue 11): decompressing the same file
// alone, in this process, single-threaded, to a discarded buffer; the
// ratios are printed in wall time (judged: the issue asks for time, and
// summary may decompress on a second thread) and in CPU time, each the
// best of three runs.
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <set>
#include <string>
#include <vector>

#include "common/io.hh"
#include "common/spawn.hh"
#include "proto/codec.hh"
#include "proto/stream.hh"

namespace fs = std::filesystem;

namespace {

constexpr int kSamples = 100'000;
constexpr int64_t kStepNs = 10'000'000;

struct Run {
  double seconds = 0;
  double cpu_seconds = 0;
  long maxrss_kib = 0;
  int status = 0;
};

Run Execute(const std::vector<std::string>& argv) {
  std::vector<const char*> args = pm::NullTerminated(argv);
  pm::UniqueFd null = pm::OpenAt(AT_FDCWD, "/dev/null", O_WRONLY);
  pm::SpawnFd fds[] = {{1, null.Get()}, {2, null.Get()}};
  pm::SpawnSpec spec{};
  spec.path = args[0];
  spec.argv = args.data();
  spec.fds = fds;
  spec.fd_count = std::size(fds);
  auto start = std::chrono::steady_clock::now();
  pm::SpawnedChild child = pm::Spawn(spec);
  Run run;
  struct rusage usage {};
  if (!pm::ReapChild(child.pid, &run.status, &usage)) throw std::runtime_error("wait4");
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  run.cpu_seconds = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                    static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
  run.maxrss_kib = usage.ru_maxrss;
  return run;
}

// The header and one sample line of a real recording of this machine.
std::pair<std::string, std::string> RealLines(const std::string& perfmonger,
                                              const std::string& dir) {
  std::string path = dir + "/real.pgr";
  Run r = Execute({perfmonger, "record", "--format-version", "1", "-i", "0.01", "-t", "0.05",
                   "-l", path});  // v1: the synthesized lines are absolute
  if (r.status != 0) throw std::runtime_error("recording a real sample failed");
  std::ifstream in(path);
  std::string header, sample;
  std::getline(in, header);
  std::getline(in, sample);
  return {header + "\n", sample};
}

// {"t":T,"mono":M,<rest> with both clocks advanced by `shift`.
std::string Shifted(const std::string& sample, int64_t shift) {
  size_t t_at = sample.find("\"t\":") + 4;
  size_t m_at = sample.find(",\"mono\":");
  size_t rest = sample.find(',', m_at + 1);
  int64_t t = std::stoll(sample.substr(t_at, m_at - t_at));
  int64_t mono = std::stoll(sample.substr(m_at + 8, rest - m_at - 8));
  return "{\"t\":" + std::to_string(t + shift) + ",\"mono\":" + std::to_string(mono + shift) +
         sample.substr(rest) + "\n";
}

void Synthesize(const std::string& path, const std::string& header,
                const std::string& sample) {
  pm::UniqueFd fd = pm::OpenAt(AT_FDCWD, path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  struct FdSink final : pm::OutputStream {
    int fd;
    explicit FdSink(int f) : fd(f) {}
    void Write(std::string_view b) override { pm::WriteAll(fd, b); }
    void Flush() override {}
    void Finish() override {}
  } sink(fd.Get());
  auto out = pm::MakeCompressor(pm::CompressionForPath(path), sink);
  out->Write(header);
  out->Flush();
  for (int i = 0; i < kSamples; ++i) {
    out->Write(Shifted(sample, i * kStepNs));
    out->Flush();  // as the recorder does: a sync point per sample
  }
  out->Finish();
}

struct Floor {
  double seconds = 1e9;
  double cpu_seconds = 1e9;
};

// Decompressing `path` alone (the best of three, wall and CPU apart): the
// floor under any reader of it.
Floor DecompressSeconds(const std::string& path) {
  Floor best;
  for (int i = 0; i < 3; ++i) {
    pm::UniqueFd fd = pm::OpenAt(AT_FDCWD, path, O_RDONLY);
    pm::FdInputStream in(fd.Get());
    struct rusage before {}, after {};
    getrusage(RUSAGE_SELF, &before);
    auto start = std::chrono::steady_clock::now();
    auto decompressed = pm::MakeDecompressor(in);
    std::vector<char> buf(64 * 1024);
    while (decompressed->Read(buf) != 0) {
    }
    getrusage(RUSAGE_SELF, &after);
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    auto seconds = [](const struct rusage& u) {
      return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
             static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
    };
    best.seconds = std::min(best.seconds, wall);
    best.cpu_seconds = std::min(best.cpu_seconds, seconds(after) - seconds(before));
  }
  return best;
}

// The best of three runs, by wall time.
Run Best(const std::vector<std::string>& argv) {
  Run best = Execute(argv);
  for (int i = 0; i < 2; ++i) {
    Run run = Execute(argv);
    if (run.seconds < best.seconds) best = run;
  }
  return best;
}

void ReportFloor(const char* codec, const Floor& floor, const Run& summary, double target) {
  double wall = summary.seconds / floor.seconds;
  double cpu = summary.cpu_seconds / floor.cpu_seconds;
  std::printf("%-12s %-5s %6.3f s decompression alone (cpu %.3f s); summary/decompression"
              " %.2fx wall, %.2fx CPU  target <= %.1f  %s\n",
              "floor", codec, floor.seconds, floor.cpu_seconds, wall, cpu, target,
              wall <= target ? "PASS" : "MISS");
}

void Report(const char* what, const char* codec, const Run& run, double items,
            const char* unit, double target) {
  double rate = items / run.seconds;
  std::printf("%-12s %-5s %10.0f %s/s  (cpu %.2f s, peak RSS %.1f MiB)", what, codec, rate,
              unit, run.cpu_seconds, run.maxrss_kib / 1024.0);
  if (target > 0)
    std::printf("  target >= %.0f  %s", target, run.status == 0 && rate >= target ? "PASS" : "MISS");
  else if (run.status != 0)
    std::printf("  FAILED (status %d)", run.status);
  std::printf("\n");
}

// The series of an OpenMetrics export (the phase gauge aside): the lines
// per sample the export writes for this machine's recording.
size_t SeriesPerSample(const std::string& perfmonger, const std::string& dir) {
  std::string out = dir + "/real.om";
  pid_t pid = fork();
  if (pid == 0) {
    int fd = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, 1);
    execl(perfmonger.c_str(), perfmonger.c_str(), "play", "--format", "openmetrics",
          (dir + "/real.pgr").c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  std::ifstream in(out);
  std::set<std::string> series;
  for (std::string line; std::getline(in, line);)
    if (!line.starts_with("#") && !line.starts_with("perfmonger_phase_info"))
      series.insert(line.substr(0, line.rfind(' ', line.rfind(' ') - 1)));
  return series.size();
}

}  // namespace

int main() {
  try {
    fs::path self = fs::read_symlink("/proc/self/exe").parent_path();
    const char* env = std::getenv("PERFMONGER");
    std::string perfmonger = env && *env ? env : (self / ".." / "tools" / "perfmonger").string();
    // Its own directory: two benches at once must not share files.
    std::string pattern = fs::temp_directory_path() / "perfmonger-bench-readers.XXXXXX";
    if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp: " + pattern);
    std::string dir = pattern;
    auto [header, sample] = RealLines(perfmonger, dir);
    std::printf("%d samples of %zu bytes each (plain)\n", kSamples, sample.size() + 1);
    size_t series = SeriesPerSample(perfmonger, dir);
    for (const char* codec : {"gz", "zst"}) {
      std::string path = dir + "/long.pgr." + codec;
      Synthesize(path, header, sample);
      std::printf("%s: %.1f MiB\n", path.c_str(), fs::file_size(path) / 1048576.0);
      Report("play", codec, Execute({perfmonger, "play", path}), kSamples - 1, "lines", 200'000);
      Run summary = Best({perfmonger, "summary", path});
      Report("summary", codec, summary, kSamples, "samples", 2'000'000);
      ReportFloor(codec, DecompressSeconds(path), summary, codec == std::string("gz") ? 1.3 : 1.5);
      // The exports, on the same file (issue 17): CSV rows are play's lines;
      // OpenMetrics writes one line per sample and series, through a spool
      // in $TMPDIR.
      Report("play csv", codec, Execute({perfmonger, "play", "--format", "csv", path}),
             kSamples - 1, "lines", 0);
      Run om = Execute({perfmonger, "play", "--format", "openmetrics", path});
      Report("openmetrics", codec, om, kSamples, "samples", 0);
      std::printf("%-12s %-5s %10.0f OpenMetrics lines/s (%zu series per sample)\n", "", codec,
                  static_cast<double>(kSamples) * static_cast<double>(series) / om.seconds,
                  series);
    }
    fs::remove_all(dir);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "perfmonger-bench-readers: %s\n", e.what());
    return 1;
  }
  return 0;
}

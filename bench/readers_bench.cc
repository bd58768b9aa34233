// perfmonger-bench-readers: how fast `play` and `summary` read a long
// recording, and how much memory they keep (issues 3, 11 and 20).
//
// The samples are those of a real recording of this machine at 1 ms
// (21 s, over 20,000 samples; made first, format v1 plain, or the one
// $PERFMONGER_BENCH_RECORDING names, to make reruns fast), written again
// as v1 and v2 in gzip and zstd, every line flushed as the recorder does
// (bench/readers_files.hh). For each it times `perfmonger play FILE
// >/dev/null` and `perfmonger summary FILE >/dev/null`, started by the
// common spawn (wall clock, wait4's rusage for CPU; summary's peak RSS from
// a run of its own). The floor `summary` is held to
// (issue 11): decompressing the same file alone, in this process,
// single-threaded, to a discarded buffer; the ratios are printed in wall
// time (judged: the issue asks for time, and summary may decompress on a
// second thread) and in CPU time, each the best of 41 runs, the three
// taking turns, and the four files taking turns. Then v2's
// CPU beside v1's (issue 20: play and summary no slower).
#include <fcntl.h>
#include <malloc.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "common/io.hh"
#include "common/spawn.hh"
#include "bench/readers_files.hh"
#include "proto/codec.hh"
#include "proto/stream.hh"

namespace fs = std::filesystem;

namespace {

// Each figure the best of: this machine shares its host, and a run of ten
// milliseconds is easily caught by a neighbour; the fastest of many is the
// one nothing else took from.
constexpr int kRuns = 41;

struct Run {
  double seconds = 0;
  double cpu_seconds = 0;
  long maxrss_kib = 0;  // PeakRssKib's, for summary
  int status = 0;
};

// Starts `argv` with stdout to `out` and stderr to /dev/null through the
// common spawn (clone(CLONE_VM | CLONE_VFORK), as posix_spawn): a fork()
// would copy the bench's page tables, charging summary about 0.2 ms here
// and up to 2 ms once the bench held the recording's lines.
pm::SpawnedChild StartQuiet(const std::vector<std::string>& argv, int out) {
  std::vector<const char*> args = pm::NullTerminated(argv);
  pm::UniqueFd null = pm::OpenAt(AT_FDCWD, "/dev/null", O_WRONLY);
  pm::SpawnFd fds[] = {{1, out < 0 ? null.Get() : out}, {2, null.Get()}};
  pm::SpawnSpec spec{};
  spec.path = args[0];
  spec.argv = args.data();
  spec.fds = fds;
  spec.fd_count = std::size(fds);
  return pm::Spawn(spec);
}

Run Execute(const std::vector<std::string>& argv) {
  auto start = std::chrono::steady_clock::now();
  pm::SpawnedChild child = StartQuiet(argv, -1);
  Run run;
  struct rusage usage {};
  if (!pm::ReapChild(child.pid, &run.status, &usage)) throw std::runtime_error("wait4");
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  run.cpu_seconds = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                    static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
  return run;
}

// The peak RSS of a run of `argv`. A child started in the bench's memory
// counts the bench's own peak at its execve, so that peak is first reset
// to what the bench holds now (clear_refs 5), which the bench keeps small.
long PeakRssKib(const std::vector<std::string>& argv) {
  {
    pm::UniqueFd refs = pm::OpenAt(AT_FDCWD, "/proc/self/clear_refs", O_WRONLY);
    pm::WriteAll(refs.Get(), "5");
  }
  pm::SpawnedChild child = StartQuiet(argv, -1);
  int status = 0;
  struct rusage usage {};
  if (!pm::ReapChild(child.pid, &status, &usage)) throw std::runtime_error("wait4");
  return usage.ru_maxrss;
}

struct Floor {
  double seconds = 1e9;
  double cpu_seconds = 1e9;
};

// Decompressing `path` alone, once, wall and CPU: the floor under any
// reader of it.
Floor DecompressOnce(const std::string& path) {
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
  auto seconds = [](const struct rusage& u) {
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
  };
  return {std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
          seconds(after) - seconds(before)};
}

// One line per form: play, summary, and summary against the floor.
struct Figures {
  Run play, summary;
  Floor floor;
};

// Each the best of kRuns, by wall time (the floor's CPU apart). The three
// take turns, so that a spell of load on the shared host weighs on the
// floor as on what is measured against it; and the files take turns, so
// that a spell of seconds (this VM has them: its two CPUs are at times
// slow together) does not fall on every run of one file.
std::vector<Figures> Measure(const std::string& perfmonger, const std::vector<std::string>& paths) {
  std::vector<Figures> best(paths.size());
  for (Figures& f : best) f.play.seconds = f.summary.seconds = 1e9;
  for (int i = 0; i < kRuns; ++i) {
    for (size_t k = 0; k < paths.size(); ++k) {
      Figures& f = best[k];
      for (auto [run, command] : {std::pair{&f.play, "play"}, {&f.summary, "summary"}})
        if (Run r = Execute({perfmonger, command, paths[k]}); r.seconds < run->seconds) *run = r;
      Floor floor = DecompressOnce(paths[k]);
      f.floor.seconds = std::min(f.floor.seconds, floor.seconds);
      f.floor.cpu_seconds = std::min(f.floor.cpu_seconds, floor.cpu_seconds);
    }
  }
  for (size_t k = 0; k < paths.size(); ++k)
    best[k].summary.maxrss_kib = PeakRssKib({perfmonger, "summary", paths[k]});
  return best;
}

void Report(const char* form, const std::string& path, const Figures& f, size_t samples,
            double target) {
  double n = static_cast<double>(samples);
  double wall = f.summary.seconds / f.floor.seconds;
  double cpu = f.summary.cpu_seconds / f.floor.cpu_seconds;
  bool failed = f.play.status != 0 || f.summary.status != 0;
  std::printf("%-6s %5.2f MiB  play %8.0f lines/s (cpu %5.1f ms)  summary %9.0f samples/s"
              " (cpu %5.1f ms, RSS %4.1f MiB)  /decompression %.2fx wall %.2fx CPU"
              " (target <= %.1f %s)%s\n",
              form, fs::file_size(path) / 1048576.0, (n - 1) / f.play.seconds,
              f.play.cpu_seconds * 1e3, n / f.summary.seconds, f.summary.cpu_seconds * 1e3,
              f.summary.maxrss_kib / 1024.0, wall, cpu, target, wall <= target ? "PASS" : "MISS",
              failed ? "  FAILED" : "");
}

// Issue 20: v2's `play` no slower than v1's (in CPU: the machine is
// shared, wall time is the noisier); `summary` is held to its floor above.
void ReportVersions(const char* codec, const Figures& v1, const Figures& v2) {
  double play = v2.play.cpu_seconds / v1.play.cpu_seconds;
  std::printf("v2/v1  %-4s  play cpu %.2fx (target <= 1.00 %s), summary cpu %.2fx\n", codec, play,
              play <= 1.0 ? "PASS" : "MISS", v2.summary.cpu_seconds / v1.summary.cpu_seconds);
}

void ReportExports(const std::string& perfmonger, const char* codec, const std::string& path,
                   size_t samples, size_t series) {
  double n = static_cast<double>(samples);
  Run csv = Execute({perfmonger, "play", "--format", "csv", path});
  Run om = Execute({perfmonger, "play", "--format", "openmetrics", path});
  std::printf("v1 %-4s exports: csv %.0f lines/s (cpu %.1f ms); openmetrics %.0f samples/s,"
              " %.0f lines/s (%zu series per sample, cpu %.1f ms)\n",
              codec, (n - 1) / csv.seconds, csv.cpu_seconds * 1e3, n / om.seconds,
              n * static_cast<double>(series) / om.seconds, series, om.cpu_seconds * 1e3);
}

// The series of an OpenMetrics export (the phase gauge aside): the lines
// per sample the export writes for this machine's recording.
size_t SeriesPerSample(const std::string& perfmonger, const std::string& dir,
                       const std::string& recording) {
  std::string out = dir + "/real.om";
  {
    pm::UniqueFd file = pm::OpenAt(AT_FDCWD, out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    pm::SpawnedChild child =
        StartQuiet({perfmonger, "play", "--format", "openmetrics", recording}, file.Get());
    pm::ReapChild(child.pid, nullptr, nullptr);  // its warnings are not the bench's
  }
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
    const char* reuse = std::getenv("PERFMONGER_BENCH_RECORDING");
    std::string real = reuse && *reuse ? reuse : dir + "/real.pgr";
    if (real == dir + "/real.pgr") pm::bench::RecordReal(perfmonger, real, "21s");
    pm::bench::RecordingLines rec = pm::bench::LoadLines(real);
    std::printf("%s: %zu samples, %.0f bytes a line (v1 plain)%s\n", real.c_str(), rec.samples,
                static_cast<double>(fs::file_size(real)) / static_cast<double>(rec.lines.size()),
                rec.samples < 20'000 ? "  (under 20,000: the machine was busy)" : "");
    size_t series = SeriesPerSample(perfmonger, dir, real);
    const char* codecs[] = {"gz", "zst"};
    std::vector<std::string> paths;  // v1 and v2 of each codec
    for (const char* codec : codecs)
      for (int version : {1, 2}) {
        paths.push_back(dir + "/v" + std::to_string(version) + ".pgr." + codec);
        pm::bench::WriteRecording(paths.back(), rec, version);
      }
    size_t samples = rec.samples;
    // A child's peak RSS counts the pages the bench holds (PeakRssKib).
    rec = {};
    malloc_trim(0);
    std::vector<Figures> figures = Measure(perfmonger, paths);
    for (size_t c = 0; c < std::size(codecs); ++c) {
      std::string codec = codecs[c];
      double target = codec == "gz" ? 1.3 : 1.5;
      const Figures &f1 = figures[2 * c], &f2 = figures[2 * c + 1];
      Report(("v1 " + codec).c_str(), paths[2 * c], f1, samples, target);
      Report(("v2 " + codec).c_str(), paths[2 * c + 1], f2, samples, target);
      ReportVersions(codec.c_str(), f1, f2);
      ReportExports(perfmonger, codec.c_str(), paths[2 * c], samples, series);
    }
    fs::remove_all(dir);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "perfmonger-bench-readers: %s\n", e.what());
    return 1;
  }
  return 0;
}

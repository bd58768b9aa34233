#include "bench/report.hh"

#include <cstdio>

namespace pm::bench {
namespace {

constexpr double kReadyTargetMs = 7.7;
constexpr double kRatioTarget = 1.2;
// A collector beyond the default set is on by default only this close to
// the floor of reading and parsing its files.
constexpr double kSarDefaultTarget = 1.1;
constexpr double kStopTargetMs = 2.0;
constexpr double kRssTargetMiB = 5.0;
constexpr double kJitterTargetUs = 300;
constexpr double kPerfMongerGzipBytes = 31;
// Issue 20's targets for format v2.
constexpr double kV2RatioTarget = 1.15;
constexpr double kV2GzipBytes = 45;
constexpr double kV2ZstdBytes = 31;
constexpr double kPingTargetUs = 100;
constexpr double kFlushCmdTargetUs = 1'000;  // pause, resume: a sample flushed
constexpr int64_t kMs = 1'000'000;

double MiB(long kib) { return static_cast<double>(kib) / 1024.0; }

// Samples of a timed run beyond the median empty run.
double ExtraSamples(const TimedRun& run, const StartStopRuns& empty) {
  return static_cast<double>(run.recording.samples()) - Median(empty.samples);
}

double PerSample(double run, double empty_median, double extra) {
  return extra > 0 ? (run - empty_median) / extra : 0;
}

void AddReadyRows(const Results& r, std::vector<Row>& rows) {
  for (double p : {50.0, 99.0}) {
    double m = Percentile(r.start_stop.ready_ms, p);
    double f = Percentile(r.floors.start_ms, p);
    Row row{Fmt("exec->ready line %s", p == 50 ? "median" : "p99"), Fmt("%.2f ms", m),
            Fmt("%.2f ms start", f), Fmt("%.2fx", m / f), "", Verdict::kInfo};
    if (p == 50) {
      row.target = Fmt("<=%.1fx, <=%.1f ms", kRatioTarget, kReadyTargetMs);
      row.verdict = Check(m / f <= kRatioTarget && m <= kReadyTargetMs);
    }
    rows.push_back(row);
  }
}

void AddStopRows(const Results& r, std::vector<Row>& rows) {
  for (double p : {50.0, 99.0}) {
    double m = Percentile(r.start_stop.stop_ms, p);
    double f = Percentile(r.floors.fsync_ms, p);
    rows.push_back({Fmt("close(stop)->exit %s", p == 50 ? "median" : "p99"),
                    Fmt("%.2f ms", m), Fmt("%.2f ms fsync", f),
                    Fmt("%+.2f ms", m - f), Fmt("<=%.0f ms + fsync", kStopTargetMs),
                    Check(m <= kStopTargetMs + f)});
  }
}

void AddCpuRow(const char* name, const TimedRun& run, const StartStopRuns& empty,
               double floor_cpu, uint64_t floor_ticks, const Results& r, double target,
               std::vector<Row>& rows) {
  double extra = ExtraSamples(run, empty);
  double m = PerSample(run.cpu_s, Median(empty.cpu_s), extra) * 1e6;
  double f = PerSample(floor_cpu, Median(r.floors.sample_empty_cpu_s),
                       static_cast<double>(floor_ticks)) * 1e6;
  rows.push_back({Fmt("CPU/sample %s", name), Fmt("%.1f us", m), Fmt("%.1f us sampler", f),
                  Fmt("%.2fx", m / f), Fmt("<=%.2fx", target), Check(m / f <= target)});
}

// `target` 0: PerfMonger's figure is a reference only (v1).
void AddBytesRow(const char* name, const TimedRun& run, const StartStopRuns& empty,
                 double target, std::vector<Row>& rows) {
  double extra = ExtraSamples(run, empty);
  double b = PerSample(static_cast<double>(run.recording.file_bytes),
                       Median(empty.file_bytes), extra);
  Row row{Fmt("bytes/sample %s", name), Fmt("%.1f B", b),
          Fmt("%.0f B PerfMonger gz", kPerfMongerGzipBytes),
          Fmt("%.2fx", b / kPerfMongerGzipBytes), "reference", Verdict::kInfo};
  if (target > 0) {
    row.target = Fmt("<=%.0f B", target);
    row.verdict = Check(b <= target);
  }
  rows.push_back(row);
}

void AddCommandRows(const ControlRuns& c, std::vector<Row>& rows) {
  struct Cmd {
    const char* name;
    const std::vector<double>& us;
    double target_us;
  };
  for (const Cmd& cmd : {Cmd{"ping", c.ping_us, kPingTargetUs},
                         Cmd{"pause", c.pause_us, kFlushCmdTargetUs},
                         Cmd{"resume", c.resume_us, kFlushCmdTargetUs}}) {
    for (double p : {50.0, 99.0}) {
      double m = Percentile(cmd.us, p);
      double f = Percentile(c.echo_us, p);
      Row row{Fmt("cmd %s->reply %s", cmd.name, p == 50 ? "median" : "p99"),
              Fmt("%.0f us", m), Fmt("%.0f us pipe echo", f), Fmt("%.1fx", m / f), "",
              Verdict::kInfo};
      if (p == 50) {
        row.target = Fmt("<=%.0f us", cmd.target_us);
        row.verdict = Check(!cmd.us.empty() && m <= cmd.target_us);
      }
      rows.push_back(row);
    }
  }
}

// The cost per file the extra collectors add, beside the default
// collectors' per-file cost, both in the recorder at 10 ms.
void AddExtraCollectorRows(const Results& r, std::vector<Row>& rows) {
  double base = PerSample(r.run_10_base.cpu_s, Median(r.empty_10.cpu_s),
                          ExtraSamples(r.run_10_base, r.empty_10)) * 1e6;
  double all = PerSample(r.run_10_extra.cpu_s, Median(r.empty_10.cpu_s),
                         ExtraSamples(r.run_10_extra, r.empty_10)) * 1e6;
  rows.push_back({"CPU/sample @10ms +pressure+pid+cgroup", Fmt("%.1f us", all),
                  Fmt("%.1f us default set", base), Fmt("%.2fx", all / base), "-",
                  Verdict::kInfo});
  if (r.extra_files == 0) return;
  double added = (all - base) / r.extra_files, existing = base / r.default_files;
  rows.push_back({Fmt("  added cost per file (%d files)", r.extra_files), Fmt("%.1f us", added),
                  Fmt("%.1f us per default file", existing), Fmt("%.2fx", added / existing),
                  Fmt("<=%.1fx", kRatioTarget), Check(added / existing <= kRatioTarget)});
}

// CPU per sample of a BesideFloor run: the recorders' and their floors'.
struct PerSampleUs {
  double base, run, floor_base, floor;
};

PerSampleUs PerSampleOf(const BesideFloor& b, const StartStopRuns& empty) {
  auto per_sample = [&](const TimedRun& run) {
    return PerSample(run.cpu_s, Median(empty.cpu_s), ExtraSamples(run, empty)) * 1e6;
  };
  double ticks = static_cast<double>(b.ticks);
  return {per_sample(b.base), per_sample(b.run), b.floor_base_cpu_s / ticks * 1e6,
          b.floor_cpu_s / ticks * 1e6};
}

// The sar collectors beside their floor: the recorder's CPU per sample
// with them over the floor sampler's of the same files (its per-tick CPU).
void AddSarRows(const Results& r, std::vector<Row>& rows) {
  if (r.sar.ticks == 0) return;
  const PerSampleUs us = PerSampleOf(r.sar, r.empty_10);
  rows.push_back({"CPU/sample @10ms default set", Fmt("%.1f us", us.base),
                  Fmt("%.1f us floor", us.floor_base), Fmt("%.2fx", us.base / us.floor_base),
                  Fmt("<=%.1fx", kSarDefaultTarget),
                  Check(us.base / us.floor_base <= kSarDefaultTarget)});
  rows.push_back({"CPU/sample @10ms +load+vmstat+netstat", Fmt("%.1f us", us.run),
                  Fmt("%.1f us floor", us.floor), Fmt("%.2fx", us.run / us.floor),
                  Fmt("<=%.1fx on by default", kSarDefaultTarget),
                  Check(us.run / us.floor <= kSarDefaultTarget)});
}

// The finer CPU sources (cgroup2 root cpu.stat, /proc/schedstat,
// cpuidle): what reading them adds to the floor at 10 ms. The recorder's
// rows above read them, as their floors now do.
void AddCpuFineRow(const Results& r, std::vector<Row>& rows) {
  if (r.floor_10_ticks == 0) return;
  double ticks = static_cast<double>(r.floor_10_ticks);
  double with = r.floor_10_cpu_s / ticks * 1e6, without = r.floor_10_coarse_cpu_s / ticks * 1e6;
  rows.push_back({Fmt("read floor @10ms +finer CPU (%d files)", r.cpu_fine_files),
                  Fmt("%.1f us", with), Fmt("%.1f us without", without),
                  Fmt("+%.1f us", with - without), "-", Verdict::kInfo});
}

// --pid of a 64-thread process beside its floor, as the sar rows.
void AddPidRows(const Results& r, std::vector<Row>& rows) {
  if (r.pid.ticks == 0) return;
  const PerSampleUs us = PerSampleOf(r.pid, r.empty_10);
  rows.push_back({Fmt("CPU/sample @10ms +pid of %d threads", kPidThreads), Fmt("%.1f us", us.run),
                  Fmt("%.1f us floor", us.floor), Fmt("%.2fx", us.run / us.floor), "-",
                  Verdict::kInfo});
  rows.push_back({"  the pid's share beyond the default set", Fmt("%.1f us", us.run - us.base),
                  Fmt("%.1f us floor", us.floor - us.floor_base),
                  Fmt("%.2fx", (us.run - us.base) / (us.floor - us.floor_base)), "-",
                  Verdict::kInfo});
}

}  // namespace

std::vector<Row> BuildRows(const Results& r) {
  std::vector<Row> rows;
  AddReadyRows(r, rows);
  AddStopRows(r, rows);
  AddCpuRow("@10ms v1", r.run_10, r.empty_10, r.floor_10_cpu_s, r.floor_10_ticks, r,
            kRatioTarget, rows);
  AddCpuRow("@10ms v2", r.run_10_v2, r.empty_10, r.floor_10_cpu_s, r.floor_10_ticks, r,
            kV2RatioTarget, rows);
  AddCpuRow("@100ms v1", r.run_100, r.empty_100, r.floor_100_cpu_s, r.floor_100_ticks, r,
            kRatioTarget, rows);
  AddCpuRow("@100ms v2", r.run_100_v2, r.empty_100, r.floor_100_cpu_s, r.floor_100_ticks, r,
            kRatioTarget, rows);
  AddCpuFineRow(r, rows);
  AddExtraCollectorRows(r, rows);
  AddSarRows(r, rows);
  AddPidRows(r, rows);

  double floor_rss = MiB(r.floors.start_maxrss_kib);
  double gz = MiB(r.run_100.maxrss_kib), zst = MiB(r.run_100_zstd.maxrss_kib);
  rows.push_back({"peak RSS gzip (ru_maxrss)", Fmt("%.2f MiB", gz),
                  Fmt("%.2f MiB start", floor_rss), Fmt("%.2fx", gz / floor_rss),
                  Fmt("<=%.0f MiB", kRssTargetMiB), Check(gz <= kRssTargetMiB)});
  rows.push_back({"peak RSS zstd (ru_maxrss)", Fmt("%.2f MiB", zst),
                  Fmt("%.2f MiB start", floor_rss), Fmt("%.2fx", zst / floor_rss), "-",
                  Verdict::kInfo});
  rows.push_back({"VmHWM gzip / zstd (own image)",
                  Fmt("%.2f / %.2f MiB", MiB(r.run_100.vm_hwm_kib),
                      MiB(r.run_100_zstd.vm_hwm_kib)),
                  "-", "-", "-", Verdict::kInfo});

  AddBytesRow("gzip @100ms v1", r.run_100, r.empty_100, 0, rows);
  AddBytesRow("gzip @100ms v2", r.run_100_v2, r.empty_100, kV2GzipBytes, rows);
  AddBytesRow("zstd @100ms v1", r.run_100_zstd, r.empty_100_zstd, 0, rows);
  AddBytesRow("zstd @100ms v2", r.run_100_zstd_v2, r.empty_100_zstd, kV2ZstdBytes, rows);

  Jitter j = IntervalJitter(r.run_10.recording.mono_ns, 10 * kMs);
  double p99 = j.p99_ns / 1e3;
  rows.push_back({"interval jitter p99 @10ms", Fmt("%.0f us", p99),
                  Fmt("max %.0f us", j.max_ns / 1e3), "-", Fmt("<=%.0f us", kJitterTargetUs),
                  Check(p99 <= kJitterTargetUs && j.count > 0)});
  AddCommandRows(r.control, rows);
  return rows;
}

void PrintDetails(const Results& r) {
  auto timed = [](const char* name, const TimedRun& t) {
    const RecordingInfo& rec = t.recording;
    std::printf("  %-13s %5llu samples, %7llu B, cpu %.1f ms, stop %.2f ms, end=%s "
                "reason=%s missed_ticks=%llu%s\n",
                name, static_cast<unsigned long long>(rec.samples()),
                static_cast<unsigned long long>(rec.file_bytes), t.cpu_s * 1e3, t.stop_ms,
                rec.has_end ? "yes" : "NO", rec.end_reason.c_str(),
                static_cast<unsigned long long>(rec.end_missed_ticks),
                rec.truncated ? " TRUNCATED" : "");
  };
  auto empty = [](const char* name, const StartStopRuns& e) {
    std::printf("  %-13s x%zu: median %.0f samples, %.0f B, cpu %.2f ms, ready %.2f ms\n",
                name, e.cpu_s.size(), Median(e.samples), Median(e.file_bytes),
                Median(e.cpu_s) * 1e3, Median(e.ready_ms));
  };
  std::printf("\nDetails:\n");
  empty("start/stop gz", r.start_stop);
  empty("empty gz 10ms", r.empty_10);
  empty("empty gz 100", r.empty_100);
  empty("empty zst 100", r.empty_100_zstd);
  timed("gz @10ms v1", r.run_10);
  timed("gz @10ms v2", r.run_10_v2);
  timed("gz @100ms v1", r.run_100);
  timed("gz @100ms v2", r.run_100_v2);
  timed("zst @100ms v1", r.run_100_zstd);
  timed("zst @100ms v2", r.run_100_zstd_v2);
  std::printf("  floor sampler: empty cpu %.2f ms (median of %zu); %llu ticks @10ms cpu %.1f ms; "
              "%llu ticks @100ms cpu %.1f ms (each run beside its recording)\n",
              Median(r.floors.sample_empty_cpu_s) * 1e3, r.floors.sample_empty_cpu_s.size(),
              static_cast<unsigned long long>(r.floor_10_ticks), r.floor_10_cpu_s * 1e3,
              static_cast<unsigned long long>(r.floor_100_ticks), r.floor_100_cpu_s * 1e3);
  std::printf("  exec->ready min: recorder %.2f ms, floor_start %.2f ms (the least the "
              "scheduler added)\n",
              Percentile(r.start_stop.ready_ms, 0), Percentile(r.floors.start_ms, 0));
  const ControlRuns& c = r.control;
  timed("cmd gz -i 1", c.run);
  std::printf("  commands: %zu pings (+%d warm-up) and %zu pause/resume pairs, alternating, "
              "each ping followed by a pipe-echo round-trip to the floor-echo child; max ping %.0f, "
              "pause %.0f, resume %.0f, echo %.0f us; expect %zu samples + ticks\n",
              c.ping_us.size(), c.warmup_pings, c.pause_us.size(), Percentile(c.ping_us, 100),
              Percentile(c.pause_us, 100), Percentile(c.resume_us, 100),
              Percentile(c.echo_us, 100), 2 + c.pause_us.size() + c.resume_us.size());
  std::printf("  fsync: write+fsync of a new file the size of each start/stop recording "
              "(median %.0f B), same directory, after each rep\n",
              Median(r.start_stop.file_bytes));
}

}  // namespace pm::bench

#include "playback/openmetrics_phases.hh"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <climits>

#include "common/error.hh"
#include "common/unique_fd.hh"
#include "playback/column_spool.hh"
#include "playback/openmetrics_text.hh"

namespace pm {

void PhaseTracker::Sample(int64_t t_ms, const Emit& emit) const {
  if (!cur_.paused) emit(cur_, t_ms, 1);
}

void PhaseTracker::Event(std::string_view kind, std::string_view label, int64_t t_ms,
                         const Emit& emit) {
  bool pause = kind == "pause", resume = kind == "resume", mark = kind == "mark";
  if (!mark && !(pause && !cur_.paused) && !(resume && cur_.paused)) return;
  emit(cur_, t_ms, 0);
  if (mark) cur_.phase = std::string(label);
  else cur_.paused = pause;
  emit(cur_, t_ms, 1);
}

// One spooled point of series `id` (an index into keys_).
struct PhaseSeries::Point {
  int64_t t_ms;
  uint32_t id;
  int32_t value;
};

namespace {

FILE* OpenPointSpool(const std::string& dir) {
  UniqueFd fd = OpenSpoolFile(dir);
  FILE* f = fdopen(fd.Get(), "w+b");
  if (f == nullptr) throw SystemError("spool file in " + dir);
  fd.Release();
  return f;
}

void Check(bool ok) {
  if (!ok) throw SystemError("the export's phase spool", errno != 0 ? errno : EIO);
}

// A file of `bytes` mapped for writing, unmapped (and the file gone) at the end.
class MappedSpool {
 public:
  MappedSpool(const std::string& dir, size_t bytes) : fd_(OpenSpoolFile(dir)), bytes_(bytes) {
    Check(ftruncate(fd_.Get(), static_cast<off_t>(bytes)) == 0);
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd_.Get(), 0);
    Check(p != MAP_FAILED);
    data_ = p;
  }
  ~MappedSpool() { munmap(data_, bytes_); }
  MappedSpool(const MappedSpool&) = delete;
  MappedSpool& operator=(const MappedSpool&) = delete;
  template <class T>
  T* as() const { return static_cast<T*>(data_); }

 private:
  UniqueFd fd_;
  size_t bytes_;
  void* data_ = nullptr;
};

}  // namespace

PhaseSeries::PhaseSeries(const std::string& spool_dir)
    : spool_dir_(spool_dir), points_(OpenPointSpool(spool_dir), fclose) {}

PhaseSeries::~PhaseSeries() = default;

void PhaseSeries::Spool(const PhaseKey& key, int64_t t_ms, int value) {
  std::string name = key.phase + (key.paused ? '\1' : '\0');
  auto [it, added] = ids_.try_emplace(std::move(name), static_cast<uint32_t>(keys_.size()));
  if (added) {
    keys_.push_back(key);
    counts_.push_back(0);
  }
  ++counts_[it->second];
  const Point point{t_ms, it->second, value};
  Check(fwrite(&point, sizeof point, 1, points_.get()) == 1);
}

void PhaseSeries::Sample(int64_t t_ms) {
  tracker_.Sample(t_ms, [this](const PhaseKey& k, int64_t t, int v) { Spool(k, t, v); });
}

void PhaseSeries::Event(const RecordingEvent& e, int64_t t_ms) {
  tracker_.Event(e.kind, e.label, t_ms,
                 [this](const PhaseKey& k, int64_t t, int v) { Spool(k, t, v); });
}

// Where each series' run begins in the sorted points; the last entry is
// the number of points.
std::vector<uint64_t> PhaseSeries::Starts() const {
  std::vector<uint64_t> starts(counts_.size() + 1, 0);
  for (size_t i = 0; i < counts_.size(); ++i) starts[i + 1] = starts[i] + counts_[i];
  return starts;
}

void PhaseSeries::Write(std::string& out, const std::string& common_labels,
                        const std::function<void()>& drain) {
  if (keys_.empty()) return;
  out.append("# TYPE perfmonger_phase_info gauge\n"
             "# HELP perfmonger_phase_info 1 while the recording is in this phase (the label "
             "of the last mark, start before any) and state (recording or paused), 0 when it "
             "leaves it.\n");
  const std::vector<uint64_t> starts = Starts();
  MappedSpool sorted(spool_dir_, starts.back() * sizeof(Point));
  Point* by_series = sorted.as<Point>();
  std::vector<uint64_t> next(starts.begin(), starts.end() - 1);
  FILE* f = points_.get();
  Check(fflush(f) == 0);
  rewind(f);
  Point block[4096];
  for (size_t got; (got = fread(block, sizeof(Point), std::size(block), f)) > 0;)
    for (size_t i = 0; i < got; ++i) by_series[next[block[i].id]++] = block[i];  // stable
  Check(ferror(f) == 0);
  for (size_t id = 0; id < keys_.size(); ++id) {
    std::string prefix = "perfmonger_phase_info{";
    AppendLabel(prefix, "phase", keys_[id].phase);
    prefix.push_back(',');
    AppendLabel(prefix, "state", keys_[id].paused ? "paused" : "recording");
    if (!common_labels.empty()) prefix += "," + common_labels;
    prefix += "} ";
    WriteOne(out, {by_series + starts[id], by_series + starts[id + 1]}, prefix, drain);
  }
}

// One series' points, in file order. Points at one millisecond collapse
// to the last (the state after), and a point earlier than the one before
// (the wall clock stepped back) is dropped: timestamps within a series
// must increase.
void PhaseSeries::WriteOne(std::string& out, std::span<const Point> points,
                           const std::string& prefix, const std::function<void()>& drain) {
  bool pending = false;
  int64_t pending_t = INT64_MIN;
  int pending_v = 0;
  auto flush = [&] {
    if (!pending) return;
    out.append(prefix);
    out.push_back(pending_v != 0 ? '1' : '0');
    out.push_back(' ');
    AppendTimestampMs(out, pending_t);
    out.push_back('\n');
    pending = false;
    drain();
  };
  for (const Point& p : points) {
    if (pending && p.t_ms == pending_t) {
      pending_v = p.value;
      continue;
    }
    if (p.t_ms < pending_t) continue;
    flush();
    pending = true;
    pending_t = p.t_ms;
    pending_v = p.value;
  }
  flush();
}

}  // namespace pm

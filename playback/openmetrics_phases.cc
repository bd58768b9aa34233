#include "playback/openmetrics_phases.hh"

#include <cerrno>
#include <climits>

#include "common/error.hh"
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

// One spooled event: [u64 samples_before][i64 t_ms][u32 kind length][u32
// label length][kind][label].
struct PhaseSeries::Record {
  uint64_t samples_before = 0;
  int64_t t_ms = 0;
  std::string kind, label;
};

namespace {

FILE* OpenEventSpool(const std::string& dir) {
  UniqueFd fd = OpenSpoolFile(dir);
  FILE* f = fdopen(fd.Get(), "w+b");
  if (f == nullptr) throw SystemError("spool file in " + dir);
  fd.Release();
  return f;
}

void Check(bool ok) {
  if (!ok) throw SystemError("the export's event spool", errno != 0 ? errno : EIO);
}

}  // namespace

PhaseSeries::PhaseSeries(const std::string& spool_dir)
    : events_(OpenEventSpool(spool_dir), fclose) {}

PhaseSeries::~PhaseSeries() = default;

void PhaseSeries::Register(const PhaseKey& key) {
  std::string id = key.phase + (key.paused ? '\1' : '\0');
  if (seen_.insert(id).second) keys_.push_back(key);
}

void PhaseSeries::Sample(int64_t t_ms) {
  tracker_.Sample(t_ms, [this](const PhaseKey& k, int64_t, int) { Register(k); });
}

void PhaseSeries::Event(const RecordingEvent& e, int64_t t_ms, uint64_t samples_before) {
  if (e.kind != "pause" && e.kind != "resume" && e.kind != "mark") return;
  uint32_t lens[2] = {static_cast<uint32_t>(e.kind.size()), static_cast<uint32_t>(e.label.size())};
  FILE* f = events_.get();
  Check(fwrite(&samples_before, 8, 1, f) == 1 && fwrite(&t_ms, 8, 1, f) == 1 &&
        fwrite(lens, 4, 2, f) == 2 && fwrite(e.kind.data(), 1, lens[0], f) == lens[0] &&
        fwrite(e.label.data(), 1, lens[1], f) == lens[1]);
  tracker_.Event(e.kind, e.label, t_ms, [this](const PhaseKey& k, int64_t, int) { Register(k); });
}

bool PhaseSeries::ReadRecord(Record& r) {
  FILE* f = events_.get();
  uint32_t lens[2];
  if (fread(&r.samples_before, 8, 1, f) != 1) return false;
  Check(fread(&r.t_ms, 8, 1, f) == 1 && fread(lens, 4, 2, f) == 2);
  r.kind.resize(lens[0]);
  r.label.resize(lens[1]);
  Check(fread(r.kind.data(), 1, lens[0], f) == lens[0] &&
        fread(r.label.data(), 1, lens[1], f) == lens[1]);
  return true;
}

void PhaseSeries::Write(std::string& out, const ColumnSpool& spool,
                        const std::string& common_labels, const std::function<void()>& drain) {
  if (keys_.empty()) return;
  out.append("# TYPE perfmonger_phase_info gauge\n"
             "# HELP perfmonger_phase_info 1 while the recording is in this phase (the label "
             "of the last mark, start before any) and state (recording or paused), 0 when it "
             "leaves it.\n");
  Check(fflush(events_.get()) == 0);
  for (const PhaseKey& key : keys_) {
    std::string prefix = "perfmonger_phase_info{";
    AppendLabel(prefix, "phase", key.phase);
    prefix.push_back(',');
    AppendLabel(prefix, "state", key.paused ? "paused" : "recording");
    if (!common_labels.empty()) prefix += "," + common_labels;
    prefix += "} ";
    WriteOne(out, spool, key, prefix, drain);
  }
}

// Replays the events and sample times, keeping the points of `key`. Points
// at one millisecond collapse to the last (the state after), and a point
// earlier than the one before (the wall clock stepped back) is dropped:
// timestamps within a series must increase.
void PhaseSeries::WriteOne(std::string& out, const ColumnSpool& spool, const PhaseKey& key,
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
  PhaseTracker::Emit emit = [&](const PhaseKey& k, int64_t t, int v) {
    if (k.paused != key.paused || k.phase != key.phase) return;
    if (pending && t == pending_t) { pending_v = v; return; }
    if (t < pending_t) return;
    flush();
    pending = true;
    pending_t = t;
    pending_v = v;
  };
  PhaseTracker tracker;
  rewind(events_.get());
  Record r;
  bool have = ReadRecord(r);
  ColumnSpool::Cursor times(spool, 0);
  uint64_t i = 0, t;
  while (times.Next(t)) {
    for (; have && r.samples_before <= i; have = ReadRecord(r))
      tracker.Event(r.kind, r.label, r.t_ms, emit);
    tracker.Sample(static_cast<int64_t>(t), emit);
    ++i;
  }
  for (; have; have = ReadRecord(r)) tracker.Event(r.kind, r.label, r.t_ms, emit);
  flush();
}

}  // namespace pm

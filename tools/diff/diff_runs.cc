#include "tools/diff/diff_runs.hh"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>

#include "common/error.hh"
#include "playback/statistics/stats_walk.hh"
#include "tools/readers/recording_input.hh"

namespace pm {
namespace {

int64_t Instant(int64_t mono_ns, int64_t time_ns) { return mono_ns > 0 ? mono_ns : time_ns; }

// Feeds a run's items to the walk, cutting phases as `how` says.
class RunFeed {
 public:
  RunFeed(StatsWalk& walk, const RunReading& how) : walk_(walk), how_(how) {}

  void Sample(const RawSample& s) {
    const int64_t t = Instant(s.mono_ns, s.time_ns);
    if (origin_ < 0) origin_ = t;
    walk_.OnSample(s);
    while (how_.cuts && next_ < how_.cuts->size() &&
           t - origin_ >= (*how_.cuts)[next_].after_ns) {
      RecordingEvent mark;
      mark.kind = "mark";
      mark.label = (*how_.cuts)[next_++].label;
      mark.time_ns = s.time_ns;
      mark.mono_ns = s.mono_ns;
      walk_.OnEvent(mark);
    }
  }

  void Event(const RecordingEvent& e) {
    if (e.kind == "mark") {
      if (how_.cuts) return;  // cut by time instead
      if (how_.marks && origin_ >= 0)
        how_.marks->push_back({Instant(e.mono_ns, e.time_ns) - origin_, e.label});
    }
    walk_.OnEvent(e);
  }

 private:
  StatsWalk& walk_;
  const RunReading& how_;
  int64_t origin_ = -1;
  size_t next_ = 0;
};

}  // namespace

RunStats ReadRun(const std::string& path, const RunReading& how, bool& damaged,
                 const std::function<void()>& before_messages) {
  RecordingInput input(path);
  if (!input.Open()) throw UsageError(input.name() + " is empty: nothing to compare");
  ReportOptions options;
  options.all = true;
  options.legacy = input.info().legacy();
  options.recorded = &input.info().recorded;
  options.info = &input.info();
  StatsWalk walk({.split = true, .keep_batches = how.keep_batches, .whole = false}, options);
  RunFeed feed(walk, how);
  RawSample sample;
  RecordingEvent event;
  using Item = RecordingReader::Item;
  for (Item item; (item = input.Next(sample, event)) != Item::kEnd;) {
    if (item == Item::kSample) feed.Sample(sample);
    else feed.Event(event);
  }
  if (before_messages) before_messages();
  input.Finish();
  damaged = damaged || input.damaged();
  uint64_t intervals = 0;
  for (const SpanStats& phase : walk.phases()) intervals += phase.intervals();
  if (intervals == 0)
    throw UsageError(input.name() + " has fewer than two samples: nothing to compare");
  RunStats run{path, {}};
  for (size_t i = 0; i < walk.phases().size(); ++i)
    run.phases.push_back({walk.labels()[i], walk.phases()[i].Results()});
  return run;
}

namespace {

// One file's reading: its result or its error, and its damage.
struct RunSlot {
  std::optional<RunStats> run;
  std::exception_ptr error;
  bool damaged = false;
};

// File i's turn to print comes after file i-1's: the threads take the
// files in order, so the file whose turn it is is always being read.
class Turns {
 public:
  void Await(size_t i) {
    std::unique_lock lock(mutex_);
    turn_.wait(lock, [&] { return now_ == i; });
  }
  void Pass() {
    {
      std::lock_guard lock(mutex_);
      ++now_;
    }
    turn_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable turn_;
  size_t now_ = 0;
};

void ReadInto(const std::string& path, size_t i, const RunReading& how, RunSlot& slot,
              Turns& turns) noexcept {
  bool mine = false;
  try {
    slot.run = ReadRun(path, how, slot.damaged, [&] {
      turns.Await(i);
      mine = true;
    });
  } catch (...) {
    slot.error = std::current_exception();
  }
  if (!mine) turns.Await(i);
  turns.Pass();
}

}  // namespace

std::vector<RunStats> ReadRuns(const std::vector<std::string>& paths, const RunReading& how,
                               bool& damaged, unsigned threads) {
  std::vector<RunSlot> slots(paths.size());
  std::atomic<size_t> next{0};
  Turns turns;
  auto work = [&] {
    for (size_t i; (i = next.fetch_add(1)) < paths.size();)
      ReadInto(paths[i], i, how, slots[i], turns);
  };
  std::vector<std::jthread> pool;
  const size_t extra = std::min<size_t>(paths.size(), std::max(threads, 1u)) - 1;
  for (size_t t = 0; t < extra; ++t) pool.emplace_back(work);
  work();
  pool.clear();  // joins
  std::vector<RunStats> out;
  for (RunSlot& slot : slots) {
    if (slot.error) std::rethrow_exception(slot.error);
    damaged = damaged || slot.damaged;
    out.push_back(std::move(*slot.run));
  }
  return out;
}

}  // namespace pm

#include "playback/statistics/diff_table.hh"

#include <fnmatch.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <utility>

namespace pm {
namespace {

constexpr double kNaN = __builtin_nan("");

std::vector<std::string> PhaseKeys(const RunStats& run) {
  std::vector<std::string> labels;
  for (const RunPhase& p : run.phases) labels.push_back(p.label);
  return pm::PhaseKeys(labels);
}

const RunPhase* FindPhase(const RunStats& run, const std::string& key) {
  const std::vector<std::string> keys = PhaseKeys(run);
  for (size_t i = 0; i < keys.size(); ++i)
    if (keys[i] == key) return &run.phases[i];
  return nullptr;
}

const SeriesStats* FindSeries(const RunPhase& phase, const std::string& name) {
  for (const SeriesStats& s : phase.series)
    if (s.name == name) return &s;
  return nullptr;
}

bool Wanted(const DiffOptions& options, const std::string& name) {
  if (options.series.empty()) return true;
  return std::any_of(options.series.begin(), options.series.end(), [&](const std::string& g) {
    return fnmatch(g.c_str(), name.c_str(), 0) == 0;
  });
}

// A rate per second has a total: "MiB/s" -> "MiB"; "" when it has none.
std::string TotalUnit(const SeriesStats& s) {
  if (s.level || s.unit.size() < 3 || s.unit.compare(s.unit.size() - 2, 2, "/s") != 0)
    return "";
  return s.unit.substr(0, s.unit.size() - 2);
}

using Side = std::vector<const SeriesStats*>;

SideFigures Figures(const Side& runs, bool total) {
  SideFigures f;
  const double n = static_cast<double>(runs.size());
  for (const SeriesStats* s : runs) {
    f.mean += (total ? s->total : s->mean) / n;
    f.p50 += s->p50 / n;
    f.p95 += s->p95 / n;
    f.p99 += s->p99 / n;
  }
  if (total) f.p50 = f.p95 = f.p99 = kNaN;
  return f;
}

// Each run's block bootstrap, once for a series' mean and its total.
struct WithinRuns {
  std::vector<BlockEstimate> a, b;
  std::vector<double> seconds_a, seconds_b;  // a total's scale
};

std::vector<BlockEstimate> Estimates(const Side& runs, std::vector<double>& seconds) {
  std::vector<BlockEstimate> out;
  for (const SeriesStats* s : runs) {
    const std::vector<double> x = s->batches ? s->batches->Means() : std::vector<double>();
    out.push_back(BlockBootstrap(x, s->mean));
    seconds.push_back(s->seconds);
  }
  return out;
}

WithinRuns Within(const Side& a, const Side& b) {
  WithinRuns w;
  w.a = Estimates(a, w.seconds_a);
  w.b = Estimates(b, w.seconds_b);
  return w;
}

// `within`: the runs' bootstraps (a side with one run); null: run-level.
Comparison Compare(const Side& a, const Side& b, bool total, const WithinRuns* within,
                   RunTest test) {
  if (within) {
    if (!total) return CompareWithin(within->a, within->b);
    return CompareWithin(within->a, within->b, within->seconds_a, within->seconds_b);
  }
  std::vector<double> xa, xb;
  for (const SeriesStats* s : a) xa.push_back(total ? s->total : s->mean);
  for (const SeriesStats* s : b) xb.push_back(total ? s->total : s->mean);
  return CompareRuns(xa, xb, test);
}

}  // namespace
namespace {

// Why a series is left out: which side lacks it in some run.
std::string Missing(const std::vector<const RunPhase*>& a, const std::vector<const RunPhase*>& b,
                    const std::string& name) {
  auto in_any = [&](const std::vector<const RunPhase*>& side) {
    return std::any_of(side.begin(), side.end(),
                       [&](const RunPhase* p) { return FindSeries(*p, name) != nullptr; });
  };
  const bool in_a = in_any(a), in_b = in_any(b);
  if (in_a && !in_b) return "only in A";
  if (in_b && !in_a) return "only in B";
  return "not in every run";
}

DiffRow Row(const std::string& phase, const Side& a, const Side& b, bool total) {
  DiffRow r;
  r.phase = phase;
  r.series = total ? a[0]->name + ".total" : a[0]->name;
  r.unit = total ? TotalUnit(*a[0]) : a[0]->unit;
  r.level = a[0]->level;
  r.a = Figures(a, total);
  r.b = Figures(b, total);
  return r;
}

class Differ {
 public:
  Differ(const std::vector<RunStats>& a, const std::vector<RunStats>& b,
         const DiffOptions& options)
      : a_(a), b_(b), options_(options) {
    out_.runs_a = a.size();
    out_.runs_b = b.size();
    out_.within_run = a.size() < 2 || b.size() < 2;
    out_.test = options.test;
    out_.fdr = options.fdr;
  }
  DiffResult Run();

 private:
  void Phase(const std::string& key);
  void Series(const std::string& key, const std::vector<const RunPhase*>& pa,
              const std::vector<const RunPhase*>& pb, const std::string& name);
  std::vector<const RunPhase*> Phases(const std::vector<RunStats>& side,
                                      const std::string& key) const;

  const std::vector<RunStats>& a_;
  const std::vector<RunStats>& b_;
  const DiffOptions& options_;
  DiffResult out_;
  std::map<std::string, std::string> missing_;  // series name -> why
};

std::vector<const RunPhase*> Differ::Phases(const std::vector<RunStats>& side,
                                            const std::string& key) const {
  std::vector<const RunPhase*> out;
  for (const RunStats& run : side) out.push_back(FindPhase(run, key));
  return out;
}

void Differ::Series(const std::string& key, const std::vector<const RunPhase*>& pa,
                    const std::vector<const RunPhase*>& pb, const std::string& name) {
  Side a, b;
  for (const RunPhase* p : pa) a.push_back(FindSeries(*p, name));
  for (const RunPhase* p : pb) b.push_back(FindSeries(*p, name));
  auto null = [](const SeriesStats* s) { return s == nullptr; };
  if (std::any_of(a.begin(), a.end(), null) || std::any_of(b.begin(), b.end(), null)) {
    missing_.emplace(name, Missing(pa, pb, name));
    return;
  }
  const bool has_total = !TotalUnit(*a[0]).empty();
  std::optional<WithinRuns> within;
  for (bool total : {false, true}) {
    if (total && !has_total) continue;
    DiffRow r = Row(key, a, b, total);
    if (!Wanted(options_, r.series)) continue;
    if (out_.within_run && !within) within = Within(a, b);
    r.change = Compare(a, b, total, within ? &*within : nullptr, options_.test);
    out_.rows.push_back(std::move(r));
  }
}

void Differ::Phase(const std::string& key) {
  const std::vector<const RunPhase*> pa = Phases(a_, key), pb = Phases(b_, key);
  auto null = [](const RunPhase* p) { return p == nullptr; };
  if (std::any_of(pa.begin(), pa.end(), null) || std::any_of(pb.begin(), pb.end(), null)) {
    const bool all_b_missing = std::all_of(pb.begin(), pb.end(), null);
    const bool some_a_missing = std::any_of(pa.begin(), pa.end(), null);
    out_.phases_not_compared.push_back("phase '" + key + "': " +
                                (all_b_missing      ? "only in A"
                                 : some_a_missing ? "not in every run of A"
                                                  : "not in every run of B"));
    return;
  }
  std::vector<std::string> names;  // in the order the runs give them
  std::set<std::string> seen;
  for (const auto* side : {&pa, &pb})
    for (const RunPhase* p : *side)
      for (const SeriesStats& s : p->series)
        if (seen.insert(s.name).second) names.push_back(s.name);
  for (const std::string& name : names) Series(key, pa, pb, name);
}

// Significant first; within each, the largest relative change first (a
// change from zero, whose ratio is not defined, after those).
void Rank(std::vector<DiffRow>& rows) {
  auto size = [](const DiffRow& r) {
    return std::isnan(r.change.ratio) ? -1.0 : std::fabs(r.change.ratio - 1);
  };
  std::stable_sort(rows.begin(), rows.end(), [&](const DiffRow& x, const DiffRow& y) {
    if (x.significant != y.significant) return x.significant;
    return size(x) > size(y);
  });
}

DiffResult Differ::Run() {
  for (const std::string& key : PhaseKeys(a_[0])) Phase(key);
  for (const std::string& key : PhaseKeys(b_[0]))
    if (!FindPhase(a_[0], key)) out_.phases_not_compared.push_back("phase '" + key + "': only in B");
  out_.series_not_compared.assign(missing_.begin(), missing_.end());
  std::vector<double> p;
  for (const DiffRow& r : out_.rows) p.push_back(r.change.p);
  const std::vector<double> q = BenjaminiHochberg(p);
  for (size_t i = 0; i < q.size(); ++i) {
    out_.rows[i].q = q[i];
    out_.rows[i].significant = q[i] <= options_.fdr;
  }
  Rank(out_.rows);
  return std::move(out_);
}

}  // namespace

std::vector<std::string> PhaseKeys(const std::vector<std::string>& labels) {
  std::map<std::string, int> seen;
  std::vector<std::string> keys;
  for (const std::string& label : labels) {
    const int k = ++seen[label];
    keys.push_back(k == 1 ? label : label + "#" + std::to_string(k));
  }
  return keys;
}

DiffResult Diff(const std::vector<RunStats>& a, const std::vector<RunStats>& b,
                const DiffOptions& options) {
  if (a.empty() || b.empty()) return {};
  return Differ(a, b, options).Run();
}

}  // namespace pm

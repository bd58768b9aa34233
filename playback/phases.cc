#include "playback/phases.hh"

#include <algorithm>

namespace pm {
namespace {

// acc += to − from, element by element (unsigned: wraps as the counters do).
template <typename A>
void AddArray(A& acc, const A& from, const A& to) {
  for (size_t i = 0; i < acc.size() && i < from.size() && i < to.size(); ++i)
    acc[i] += to[i] - from[i];
}

template <typename A>
void SubArray(A& value, const A& acc) {
  for (size_t i = 0; i < value.size() && i < acc.size(); ++i) value[i] -= acc[i];
}

// The present row named `name` in `rows`, or null.
template <typename Row, typename Key>
const Row* Find(const std::vector<Row>& rows, const std::string& name, Key key) {
  for (const Row& r : rows)
    if (key(r) == name) return r.present ? &r : nullptr;
  return nullptr;
}

// The accumulator row named `name` (created, zeroed, if new).
template <typename Row, typename Key>
Row& Slot(std::vector<Row>& rows, const std::string& name, Key key) {
  for (Row& r : rows)
    if (key(r) == name) return r;
  Row& r = rows.emplace_back();
  key(r) = name;
  r.present = true;
  return r;
}

auto DevName = [](auto& d) -> auto& { return d.name; };
auto IrqName = [](auto& i) -> auto& { return i.irq; };

template <typename Row, typename Add>
void AddRows(std::vector<Row>& acc, const std::vector<Row>& from,
             const std::vector<Row>& to, auto key, Add add) {
  for (const Row& t : to) {
    if (!t.present) continue;
    const Row* f = Find(from, key(t), key);
    if (f) add(Slot(acc, key(t), key), *f, t);
  }
}

template <typename Row, typename Sub>
void SubRows(std::vector<Row>& value, const std::vector<Row>& acc, auto key, Sub sub) {
  for (Row& v : value) {
    const Row* a = Find(acc, key(v), key);
    if (a) sub(v, *a);
  }
}

void AddCounts(IntrSample& acc, const IntrSample& from, const IntrSample& to) {
  acc.counts.resize(std::max(acc.counts.size(), to.counts.size()));
  AddArray(acc.counts, from.counts, to.counts);
}

void AddCores(RawSample& acc, const RawSample& from, const RawSample& to) {
  if (acc.cores.size() < to.cores.size()) acc.cores.resize(to.cores.size());
  for (size_t i = 0; i < to.cores.size() && i < from.cores.size(); ++i)
    if (from.cores[i].present && to.cores[i].present)
      AddArray(acc.cores[i].counters, from.cores[i].counters, to.cores[i].counters);
}

// A row table's counters (its levels are not cumulative: they are left).
size_t CounterColumns(size_t table) {
  const PgrMember& m = RowTableMember(table);
  return m.fields.size() - m.levels;
}

void AddTableGaps(RawSample& acc, const RawSample& from, const RawSample& to) {
  for (size_t t = 0; t < kRowTableCount; ++t) {
    size_t n = CounterColumns(t);
    AddRows(acc.tables[t].rows, from.tables[t].rows, to.tables[t].rows, DevName,
            [n](TableRow& a, const TableRow& f, const TableRow& r) {
              a.values.resize(n);
              for (size_t i = 0; i < n && i < f.values.size() && i < r.values.size(); ++i)
                a.values[i] += r.values[i] - f.values[i];
            });
  }
}

void SubTableGaps(RawSample& value, const RawSample& acc) {
  for (size_t t = 0; t < kRowTableCount; ++t)
    SubRows(value.tables[t].rows, acc.tables[t].rows, DevName,
            [](TableRow& v, const TableRow& a) { SubArray(v.values, a.values); });
}

// acc += to − from: what moved in one gap.
void AddGap(RawSample& acc, const RawSample& from, const RawSample& to) {
  acc.time_ns += to.time_ns - from.time_ns;
  acc.mono_ns += to.mono_ns - from.mono_ns;
  if (from.cpu_total_present && to.cpu_total_present)
    AddArray(acc.cpu_total, from.cpu_total, to.cpu_total);
  AddCores(acc, from, to);
  if (from.has_proc && to.has_proc) {
    acc.ctxt += to.ctxt - from.ctxt;
    acc.processes += to.processes - from.processes;
  }
  AddRows(acc.intr, from.intr, to.intr, IrqName, AddCounts);
  auto add = [](auto& a, const auto& f, const auto& t) {
    AddArray(a.counters, f.counters, t.counters);
  };
  AddRows(acc.disks, from.disks, to.disks, DevName, add);
  AddRows(acc.nets, from.nets, to.nets, DevName, add);
  AddTableGaps(acc, from, to);
}

// value −= acc: the gaps taken out of a sample.
void SubGaps(RawSample& value, const RawSample& acc) {
  value.time_ns -= acc.time_ns;
  value.mono_ns -= acc.mono_ns;
  SubArray(value.cpu_total, acc.cpu_total);
  for (size_t i = 0; i < value.cores.size() && i < acc.cores.size(); ++i)
    SubArray(value.cores[i].counters, acc.cores[i].counters);
  value.ctxt -= acc.ctxt;
  value.processes -= acc.processes;
  SubRows(value.intr, acc.intr, IrqName,
          [](IntrSample& v, const IntrSample& a) { SubArray(v.counts, a.counts); });
  auto sub = [](auto& v, const auto& a) { SubArray(v.counters, a.counters); };
  SubRows(value.disks, acc.disks, DevName, sub);
  SubRows(value.nets, acc.nets, DevName, sub);
  SubTableGaps(value, acc);
}

}  // namespace

ActiveSpan ActiveSpan::StartingPaused(int64_t t_ns) {
  ActiveSpan span;
  span.pending_ = true;
  span.pending_ns_ = t_ns;
  span.has_pauses_ = true;
  return span;
}

void ActiveSpan::Sample(const RawSample& s) {
  if (count_++ == 0) {
    first_ = s;
    if (pending_) paused_ns_ += s.time_ns - pending_ns_;
  } else if (broken_) {
    AddGap(gaps_, last_, s);
    paused_ns_ += s.time_ns - last_.time_ns;
  }
  pending_ = false;
  broken_ = false;
  last_ = s;
}

void ActiveSpan::Break(bool pause_event, int64_t t_ns) {
  if (pause_event && count_ == 0 && !pending_) {  // started paused: paused from here
    pending_ = true;
    pending_ns_ = t_ns;
  }
  broken_ = true;
  if (pause_event) has_pauses_ = true;
}

void ActiveSpan::EndAt(int64_t t_ns) {
  if (pending_) paused_ns_ += t_ns - pending_ns_;
  else if (broken_ && count_ > 0) paused_ns_ += t_ns - last_.time_ns;
  pending_ = false;
}

RawSample ActiveSpan::ActiveEnd() const {
  RawSample end = last_;
  SubGaps(end, gaps_);  // nothing to take out without a gap
  return end;
}

void PhaseWalk::OnSample(const RawSample& s) {
  whole_.Sample(s);
  if (split_) phases_.back().span.Sample(s);
}

void PhaseWalk::OnEvent(const RecordingEvent& e) {
  bool pause = e.kind == "pause";
  if (pause || e.kind == "resume") {
    whole_.Break(pause, e.time_ns);
    if (split_) phases_.back().span.Break(pause, e.time_ns);
  } else if (e.kind == "mark" && split_) {
    Mark(e);
  } else if (e.kind == "end") {
    // Stopped while paused: the time from the pause to the stop is paused
    // time too (no sample follows to close the gap).
    whole_.EndAt(e.time_ns);
    if (split_) phases_.back().span.EndAt(e.time_ns);
  }
}

// The sample at the mark ends this phase and starts the next; a mark in a
// pause splits the paused time.
void PhaseWalk::Mark(const RecordingEvent& e) {
  ActiveSpan& current = phases_.back().span;
  Phase next{e.label, {}};
  if (current.pause_open()) next.span = ActiveSpan::StartingPaused(e.time_ns);
  else if (!current.empty() && !current.in_gap()) next.span.Sample(current.last());
  current.EndAt(e.time_ns);
  phases_.push_back(std::move(next));
}

}  // namespace pm

#include "playback/outputs/plot_data.hh"

#include <algorithm>

#include "playback/reports/plot_chart.hh"
#include "playback/reports/rates.hh"
#include "playback/reports/reports.hh"

namespace pm {
namespace {

// Blocks are set apart by three blank lines.
void AppendBlock(std::string& out, const PlotBlock& block, std::string_view columns,
                 bool separate) {
  if (separate) out.append("\n\n\n");
  if (!block.title.empty()) out.append(block.title).push_back('\n');
  out.append(columns).append(block.text);
}

}  // namespace

const PlotSlot* PlotSlotOf(size_t report) {
  return Reports()[report].report->plot;
}

PlotBlock& PlotLines::Block(size_t file, uint64_t rank, std::string_view name,
                            std::string_view title) {
  Blocks& blocks = (*files_)[file];
  auto [it, fresh] = blocks.try_emplace(Key{rank, std::string(name)});
  if (fresh) {
    it->second.name = name;
    it->second.title = title;
  }
  return it->second;
}

std::string& PlotLines::Line(PlotBlock& block) {
  if (!block.text.empty() && block.segment != segment_) block.text.push_back('\n');
  block.segment = segment_;
  block.text.append(elapsed_text_);
  return block.text;
}

void PlotLines::Col(std::string& line, double v) {
  line.push_back('\t');
  AppendFixed(line, v, 6);
}

PlotData::PlotData(const DiskFilter* disk_only, bool legacy, const RecordingInfo* info) {
  options_.disk_only = disk_only;
  options_.legacy = legacy;
  options_.info = info;
  std::span<const ReportEntry> reports = Reports();
  files_.resize(reports.size());
  for (size_t i = 0; i < reports.size(); ++i)
    if (const PlotSlot* slot = PlotSlotOf(i)) files_[i].resize(slot->files.size());
}

// A line's stamp when `s` is its pair's first sample: Go's Duration.Seconds().
double PlotData::LineElapsed(const RawSample& s) const {
  return origin_.mono_ns > 0 && s.mono_ns > 0 ? GoSeconds(s.mono_ns - origin_.mono_ns)
                                              : GoSeconds(s.time_ns - origin_.time_ns);
}

void PlotData::SetOrigin(TimeOrigin origin) {
  origin_ = origin;
  have_origin_ = true;
}

void PlotData::OnSample(const RawSample& s) {
  if (!have_first_) {
    if (!have_origin_) SetOrigin(TimeOrigin::Of(s));
    first_ns_ = s.time_ns;
    first_elapsed_ = LineElapsed(s);
    have_first_ = true;
  }
  // A sample not later than the one before cannot make a rate (`play`
  // warns about it): the pair is left out.
  if (have_prev_ && IntervalNs(prev_, s) > 0) Pair(prev_, s);
  prev_ = s;
  have_prev_ = true;
}

void PlotData::OnEvent(const RecordingEvent& e) {
  if (e.kind == "procs") procs_ = e;  // for the sample that follows
  if (e.kind == "mark") {
    marks_.push_back({e, e.label});
    return;
  }
  if (e.kind != "pause" && e.kind != "resume") return;
  have_prev_ = false;  // no rate spans a pause
  pair_procs_ = nullptr;
  ++lines_.segment_;
  bool open = pause_edges_.size() % 2 == 1;
  if ((e.kind == "pause") != open) pause_edges_.push_back(e);
}

void PlotData::Pair(const RawSample& prev, const RawSample& cur) {
  const pm::Pair pair(prev, cur, origin_, options_);
  ++pairs_;
  // PerfMonger stamps a pair's line with its first sample's time.
  last_pair_elapsed_ = LineElapsed(prev);
  lines_.elapsed_text_.clear();
  AppendFixed(lines_.elapsed_text_, last_pair_elapsed_, 6);
  std::shared_ptr<const ProcTableEvent> procs =
      procs_.procs && procs_.mono_ns == cur.mono_ns ? procs_.procs : nullptr;
  lines_.procs_ = procs.get();
  lines_.prev_procs_ = pair_procs_.get();
  for (size_t i = 0; i < files_.size(); ++i) {
    const PlotSlot* slot = PlotSlotOf(i);
    if (slot == nullptr) continue;
    lines_.files_ = &files_[i];
    slot->pair(lines_, pair);
  }
  if (procs) pair_procs_ = std::move(procs);  // a pair the table skipped keeps the one before
}

std::string PlotData::File(size_t report, size_t file) const {
  std::string out;
  if (report >= files_.size() || file >= files_[report].size()) return out;
  const PlotFileSpec& spec = PlotSlotOf(report)->files[file];
  bool first = true;
  for (const auto& [key, block] : files_[report][file]) {
    AppendBlock(out, block, spec.columns, spec.separate_first || !first);
    first = false;
  }
  return out;
}

std::vector<std::string> PlotData::Blocks(size_t report, size_t file) const {
  std::vector<std::string> names;
  if (report >= files_.size() || file >= files_[report].size()) return names;
  for (const auto& [key, block] : files_[report][file]) names.push_back(block.name);
  return names;
}

std::vector<std::string> PlotData::BlockTexts(size_t report, size_t file) const {
  std::vector<std::string> texts;
  if (report >= files_.size() || file >= files_[report].size()) return texts;
  for (const auto& [key, block] : files_[report][file]) texts.push_back(block.text);
  return texts;
}

namespace {

// Report and file index of the file named `name`, or {npos, 0}.
std::pair<size_t, size_t> FileNamed(std::string_view name) {
  for (size_t r = 0; r < Reports().size(); ++r)
    if (const PlotSlot* slot = PlotSlotOf(r))
      for (size_t f = 0; f < slot->files.size(); ++f)
        if (slot->files[f].name == name) return {r, f};
  return {static_cast<size_t>(-1), 0};
}

}  // namespace

std::string PlotData::File(std::string_view name) const {
  auto [r, f] = FileNamed(name);
  return File(r, f);
}

std::vector<std::string> PlotData::Blocks(std::string_view name) const {
  auto [r, f] = FileNamed(name);
  return Blocks(r, f);
}

double PlotData::end() const { return pairs_ ? last_pair_elapsed_ : 0; }

std::vector<PlotMark> PlotData::marks() const {
  std::vector<PlotMark> out;
  for (const TimedLabel& m : marks_) out.push_back({origin_.Elapsed(m.at), m.label});
  return out;
}

std::vector<PlotSpan> PlotData::pauses() const {
  std::vector<PlotSpan> out;
  for (size_t i = 0; i < pause_edges_.size(); i += 2) {
    double from = origin_.Elapsed(pause_edges_[i]);
    double to = i + 1 < pause_edges_.size() ? origin_.Elapsed(pause_edges_[i + 1])
                                            : std::max(end(), from);
    out.push_back({from, to});
  }
  return out;
}

}  // namespace pm

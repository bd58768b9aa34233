#include "tools/live/live_play.hh"

#include <algorithm>

#include "playback/outputs/play_json.hh"
#include "playback/outputs/play_style.hh"
#include "playback/outputs/proc_table_json.hh"
#include "tools/live/table_screen.hh"

namespace pm {

// What has been pushed and not yet read.
class LivePlay::Feed final : public InputStream {
 public:
  void Append(std::string_view bytes) { pending_.append(bytes); }
  size_t Read(std::span<char> buf) override {
    size_t n = std::min(buf.size(), pending_.size() - pos_);
    std::copy_n(pending_.data() + pos_, n, buf.data());
    pos_ += n;
    if (pos_ == pending_.size()) {
      pending_.clear();
      pos_ = 0;
    }
    return n;
  }

 private:
  std::string pending_;
  size_t pos_ = 0;
};

LivePlay::LivePlay(bool pretty, bool color)
    : pretty_(pretty), color_(color), feed_(std::make_unique<Feed>()) {}

LivePlay::LivePlay(TableScreen& table) : table_(&table), feed_(std::make_unique<Feed>()) {}

LivePlay::~LivePlay() = default;

void LivePlay::Push(std::string_view lines, std::string& out) {
  feed_->Append(lines);
  size_t items = static_cast<size_t>(std::count(lines.begin(), lines.end(), '\n'));
  if (!reader_ && items > 0) {
    reader_ = std::make_unique<RecordingReader>(*feed_);  // reads the header
    --items;
  }
  RecordingEvent event;
  for (; items > 0; --items) {
    RawSample& cur = samples_[cur_];
    RecordingReader::Item item = reader_->Next(cur, event);
    if (item == RecordingReader::Item::kSample) {
      OnSample(cur, out);
    } else if (item == RecordingReader::Item::kEvent) {
      OnEvent(event);
    }
  }
}

void LivePlay::OnEvent(const RecordingEvent& event) {
  if (event.kind == "procs") procs_ = event;  // for the sample that follows
  if (event.kind == "pause" || event.kind == "resume") have_prev_ = false;  // no rate spans one
}

void LivePlay::OnSample(const RawSample& cur, std::string& out) {
  if (!have_first_) {
    origin_ = TimeOrigin::Of(cur);
    have_first_ = true;
  }
  const RawSample& prev = samples_[cur_ ^ 1];
  if (have_prev_ && IntervalNs(prev, cur) > 0) {
    ReportOptions options;
    options.recorded = &reader_->info().recorded;
    options.info = &reader_->info();
    const bool procs = procs_.procs && procs_.mono_ns == cur.mono_ns;
    OnPair(Pair(prev, cur, origin_, options), procs ? procs_.procs.get() : nullptr, out);
  }
  have_prev_ = true;
  cur_ ^= 1;
}

void LivePlay::OnPair(const Pair& pair, const ProcTableEvent* procs, std::string& out) {
  if (table_) {
    table_->OnPair(pair, procs, out);
    return;
  }
  line_.clear();
  AppendPlayJson(line_, pair);
  if (procs) {
    line_.pop_back();  // into the object
    AppendProcTablePlay(line_, *procs, pair.cur.mono_ns);
    line_.push_back('}');
  }
  if (pretty_ || color_) AppendStyledPlayJson(out, line_, {pretty_, color_});
  else out.append(line_);
  out.push_back('\n');
}

}  // namespace pm

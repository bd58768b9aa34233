#include "playback/reading/sample_stream.hh"

#include <utility>

namespace pm {

SampleStream::SampleStream(RecordingReader& reader, Options options)
    : reader_(reader), texts_(options.texts), origin_(reader.info().origin) {
  std::optional<int64_t> origin_ns;
  if (origin_) origin_ns = origin_->time_ns;
  if (!options.window.whole()) window_.emplace(std::move(options.window), origin_ns);
}

SampleStream::Item SampleStream::Next(RawSample& sample, RecordingEvent& event) {
  giving_held_ = false;
  if (pending_) {
    event = std::move(*pending_);
    pending_.reset();
    return Item::kEvent;
  }
  for (;;) {
    Item item = reader_.Next(sample, event);
    if (item == Item::kEnd) return item;
    if (!origin_)
      origin_ = item == Item::kSample ? ItemTime{sample.time_ns, sample.mono_ns}
                                      : ItemTime{event.time_ns, event.mono_ns};
    if (item == Item::kSample) {
      if (!Windowed(sample)) continue;
      return Sample();
    }
    if (!window_) return Item::kEvent;
    bool inside = window_->OnEvent(event) == SampleWindow::Verdict::kKeep;
    if (holding_ && window_->from_known()) {
      holding_ = false;
      if (window_->Admits(held_.time_ns)) {  // the opening mark's own sample
        if (inside) pending_ = event;
        std::swap(sample, held_);
        giving_held_ = true;
        return Sample();
      }
    }
    if (inside) return Item::kEvent;
  }
}

// Whether `sample` is inside the window; one held back is swapped aside.
bool SampleStream::Windowed(RawSample& sample) {
  if (!window_) return true;
  switch (window_->OnSample(sample.time_ns)) {
    case SampleWindow::Verdict::kKeep: return true;
    case SampleWindow::Verdict::kDrop: return false;
    case SampleWindow::Verdict::kHold:
      std::swap(sample, held_);
      if (texts_) held_text_.assign(reader_.line_text());
      holding_ = true;
      return false;
  }
  return false;
}

SampleStream::Item SampleStream::Sample() {
  ++samples_;
  return Item::kSample;
}

}  // namespace pm

#include "daemon/clock_probe.hh"

#include <exception>
#include <string>

namespace pm {
namespace {

// A name far longer than any clocksource's is not one.
constexpr size_t kMaxClocksourceBytes = 256;

}  // namespace

void FillDiscipline(int state, const struct timex& tx, ClockState& out) {
  out.disciplined = true;
  out.synced = state != TIME_ERROR && (tx.status & STA_UNSYNC) == 0;
  out.offset_ns = (tx.status & STA_NANO) ? tx.offset : int64_t{tx.offset} * 1000;
  out.maxerror_us = tx.maxerror;
  out.esterror_us = tx.esterror;
}

std::string_view ClocksourceName(std::string_view text) {
  text = text.substr(0, text.find('\n'));
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

ClockProbe::ClockProbe(int root_dirfd) {
  try {
    clocksource_.emplace(root_dirfd, kClocksourcePath, kMaxClocksourceBytes,
                         ProcFile::Delivery::kWhole);
  } catch (const std::exception&) {
    // No sysfs (a container, a fake tree without it): the state has no source.
  }
}

ClockState ClockProbe::Read() noexcept {
  ClockState state;
  struct timex tx {};  // modes 0: read only, no privilege needed
  int rc = ::adjtimex(&tx);
  if (rc >= 0) FillDiscipline(rc, tx, state);
  if (clocksource_) {
    try {
      state.source = ClocksourceName(clocksource_->Read());
    } catch (const std::exception&) {
      state.source.clear();
    }
  }
  return state;
}

}  // namespace pm

#include "tools/live/table_screen.hh"

#include <signal.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <charconv>
#include <ctime>
#include <utility>

#include "playback/outputs/proc_top_rows.hh"

namespace pm {
namespace {

// A resize since the last call, the signal collected.
bool Resized() {
  sigset_t winch;
  sigemptyset(&winch);
  sigaddset(&winch, SIGWINCH);
  const struct timespec now = {0, 0};
  bool any = false;
  while (sigtimedwait(&winch, nullptr, &now) == SIGWINCH) any = true;
  return any;
}

// $COLUMNS for a pipe, as ls(1) reads it; unset: no limit.
size_t ColumnsVariable() {
  const char* text = getenv("COLUMNS");
  size_t n = 0;
  if (!text) return 0;
  std::string_view s(text);
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  return ec == std::errc() && end == s.data() + s.size() ? n : 0;
}

}  // namespace

TableScreen::TableScreen(std::string_view spec, bool color, int fd, int64_t interval_ns,
                         ProcBlock procs)
    : table_(spec), procs_(std::move(procs)), fd_(fd), terminal_(isatty(fd)) {
  style_.color = color;
  style_.time_decimals = TimeDecimals(interval_ns);
  if (terminal_) {
    sigset_t winch;
    sigemptyset(&winch);
    sigaddset(&winch, SIGWINCH);
    sigprocmask(SIG_BLOCK, &winch, nullptr);
  }
  Measure();
}

void TableScreen::Measure() {
  struct winsize size = {};
  if (terminal_ && ioctl(fd_, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) {
    style_.width = size.ws_col;
    height_ = size.ws_row;
  } else {
    style_.width = ColumnsVariable();
    height_ = 0;
  }
}

void TableScreen::OnPair(const Pair& p, const ProcTableEvent* procs, std::string& out) {
  if (terminal_ && Resized()) {
    Measure();
    header_due_ = true;
  }
  std::span<const double> values = table_.Add(p);
  // A screenful below each header, the cursor's empty line counted: the
  // header stays in sight as the rows scroll.
  if (height_ > 3 && since_header_ + 3 >= height_) header_due_ = true;
  if (header_due_) {
    AppendTableHeader(out, table_.groups(), style_);
    since_header_ = 0;
    header_due_ = false;
  }
  AppendTableRow(out, TimeLabel(p.time, style_.time_decimals), table_.groups(), values, style_);
  ++since_header_;
  if (procs)
    since_header_ += AppendProcTopRows(out, *procs, p.cur.mono_ns, procs_.top, procs_.users, style_);
}

void TableScreen::Finish(std::string& out) {
  if (table_.pairs() == 0) return;
  AppendTableRow(out, "average", table_.groups(), table_.Average(), style_);
}

}  // namespace pm

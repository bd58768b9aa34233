#include "tools/readers/window_args.hh"

#include <ctime>
#include <optional>
#include <string>

#include "common/error.hh"
#include "tools/duration.hh"

namespace pm {
namespace {

constexpr int64_t kNsPerSec = 1'000'000'000;

// Reads exactly `n` digits at `at` (advancing it) into `out`.
bool Digits(std::string_view s, size_t& at, size_t n, int& out) {
  if (at + n > s.size()) return false;
  out = 0;
  for (size_t i = 0; i < n; ++i) {
    char c = s[at + i];
    if (c < '0' || c > '9') return false;
    out = out * 10 + (c - '0');
  }
  at += n;
  return true;
}

bool Expect(std::string_view s, size_t& at, char c) {
  if (at >= s.size() || s[at] != c) return false;
  ++at;
  return true;
}

// HH:MM[:SS[.fraction]] at `at`: nanoseconds after midnight.
std::optional<int64_t> ClockTime(std::string_view s, size_t& at, bool seconds_required) {
  int h = 0, m = 0, sec = 0;
  if (!Digits(s, at, 2, h) || !Expect(s, at, ':') || !Digits(s, at, 2, m)) return std::nullopt;
  if (at < s.size() && s[at] == ':') {
    ++at;
    if (!Digits(s, at, 2, sec)) return std::nullopt;
  } else if (seconds_required) {
    return std::nullopt;
  }
  if (h > 23 || m > 59 || sec > 59) return std::nullopt;
  int64_t ns = (int64_t{h} * 3600 + m * 60 + sec) * kNsPerSec;
  if (at < s.size() && s[at] == '.') {
    ++at;
    int64_t scale = kNsPerSec;
    size_t digits = 0;
    for (; at < s.size() && s[at] >= '0' && s[at] <= '9'; ++at, ++digits)
      if (digits < 9) ns += (s[at] - '0') * (scale /= 10);
    if (digits == 0) return std::nullopt;
  }
  return ns;
}

// Z, or +HH:MM / -HH:MM, into `east` (seconds east of UTC; left empty
// when absent: local time). False for anything else.
bool Offset(std::string_view s, size_t& at, std::optional<int>& east) {
  if (at == s.size()) return true;
  if (s[at] == 'Z' || s[at] == 'z') {
    ++at;
    east = 0;
    return true;
  }
  if (s[at] != '+' && s[at] != '-') return false;
  int sign = s[at++] == '-' ? -1 : 1;
  int h = 0, m = 0;
  if (!Digits(s, at, 2, h) || !Expect(s, at, ':') || !Digits(s, at, 2, m) || h > 23 || m > 59)
    return false;
  east = sign * (h * 3600 + m * 60);
  return true;
}

// RFC 3339 (a ' ' for the T allowed; without an offset, local time): Unix ns.
std::optional<int64_t> DateTime(std::string_view s) {
  size_t at = 0;
  int year = 0, month = 0, day = 0;
  if (!Digits(s, at, 4, year) || !Expect(s, at, '-') || !Digits(s, at, 2, month) ||
      !Expect(s, at, '-') || !Digits(s, at, 2, day) || month < 1 || month > 12 || day < 1 ||
      day > 31 || at == s.size() || (s[at] != 'T' && s[at] != 't' && s[at] != ' '))
    return std::nullopt;
  ++at;
  std::optional<int64_t> of_day = ClockTime(s, at, false);  // sar's 03:00 too
  if (!of_day) return std::nullopt;
  std::optional<int> east;
  if (!Offset(s, at, east) || at != s.size()) return std::nullopt;
  struct tm tm = {};
  tm.tm_year = year - 1900;
  tm.tm_mon = month - 1;
  tm.tm_mday = day;
  tm.tm_isdst = -1;
  int64_t secs = *of_day / kNsPerSec;
  tm.tm_hour = static_cast<int>(secs / 3600);
  tm.tm_min = static_cast<int>(secs / 60 % 60);
  tm.tm_sec = static_cast<int>(secs % 60);
  time_t t = east ? timegm(&tm) - *east : mktime(&tm);
  return static_cast<int64_t>(t) * kNsPerSec + *of_day % kNsPerSec;
}

// "today", "yesterday": that local midnight, in Unix ns.
std::optional<int64_t> NamedDay(std::string_view s) {
  int back = s == "today" ? 0 : s == "yesterday" ? 1 : -1;
  if (back < 0) return std::nullopt;
  time_t now = std::time(nullptr);
  struct tm tm = {};
  localtime_r(&now, &tm);
  tm.tm_mday -= back;
  tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
  tm.tm_isdst = -1;
  return static_cast<int64_t>(mktime(&tm)) * kNsPerSec;
}

// The first instant at or after `from_ns` whose local time of day is
// `of_day_ns` (sar -s 03:00 -e 03:30: the same night).
int64_t TimeOfDayAfter(int64_t from_ns, int64_t of_day_ns) {
  time_t from = static_cast<time_t>(from_ns / kNsPerSec);
  struct tm tm = {};
  localtime_r(&from, &tm);
  for (int day = 0; day < 2; ++day) {
    struct tm at = tm;
    at.tm_mday += day;
    at.tm_hour = at.tm_min = at.tm_sec = 0;
    at.tm_isdst = -1;
    int64_t ns = static_cast<int64_t>(mktime(&at)) * kNsPerSec + of_day_ns;
    if (ns >= from_ns) return ns;
  }
  return from_ns;
}

}  // namespace

WindowBound LastBound(std::string_view text) {
  std::optional<int64_t> ns = ParseDurationNs(text);
  if (!ns || *ns == 0)
    throw UsageError("--last '" + std::string(text) + "': give a duration (15m, 2h, 90s)");
  WindowBound b;
  b.given = "(--last " + std::string(text) + ")";
  b.kind = WindowBound::Kind::kWallClock;
  b.ns = static_cast<int64_t>(std::time(nullptr)) * kNsPerSec - *ns;
  return b;
}

WindowBound ParseWindowBound(std::string_view flag, std::string_view text) {
  WindowBound b;
  b.given = std::string(text);
  if (text.starts_with("mark:")) {
    b.kind = WindowBound::Kind::kMark;
    b.mark = std::string(text.substr(5));
    if (!b.mark.empty()) return b;
    throw UsageError("--" + std::string(flag) + " 'mark:': name the mark (mark:LABEL)");
  }
  if (std::optional<int64_t> t = DateTime(text)) {
    b.kind = WindowBound::Kind::kWallClock;
    b.ns = *t;
    return b;
  }
  if (std::optional<int64_t> t = NamedDay(text)) {
    b.kind = WindowBound::Kind::kWallClock;
    b.ns = *t;
    return b;
  }
  size_t at = 0;
  if (std::optional<int64_t> of_day = ClockTime(text, at, false); of_day && at == text.size()) {
    b.kind = WindowBound::Kind::kTimeOfDay;
    b.ns = *of_day;
    return b;
  }
  if (std::optional<int64_t> ns = ParseDurationNs(text)) {
    b.kind = WindowBound::Kind::kElapsed;
    b.ns = *ns;
    return b;
  }
  throw UsageError("--" + std::string(flag) + " '" + std::string(text) +
                   "': give elapsed time (30, 1m30s), a wall-clock time "
                   "(2024-05-01T12:00:00Z, '2024-05-01 12:00', 12:00, yesterday) or "
                   "mark:LABEL");
}

void CheckWindow(WindowSpec& spec) {
  using Kind = WindowBound::Kind;
  if (spec.from.kind == Kind::kWallClock && spec.to.kind == Kind::kTimeOfDay) {
    spec.to.kind = Kind::kWallClock;
    spec.to.ns = TimeOfDayAfter(spec.from.ns, spec.to.ns);
  }
  if (spec.phase && (spec.from.kind != Kind::kOpen || spec.to.kind != Kind::kOpen))
    throw UsageError("--phase is a window of its own: not with --from or --to");
  bool comparable = spec.from.kind == spec.to.kind &&
                    (spec.from.kind == Kind::kElapsed || spec.from.kind == Kind::kWallClock);
  if (comparable && spec.from.ns > spec.to.ns)
    throw UsageError("--from " + spec.from.given + " is after --to " + spec.to.given +
                     ": give the earlier time first");
}

}  // namespace pm

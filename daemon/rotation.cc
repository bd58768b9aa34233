#include "daemon/rotation.hh"

#include <regex.h>
#include <time.h>

#include <cctype>
#include <climits>
#include <cstdio>
#include <cstdlib>

namespace pm {
namespace {

constexpr int64_t kNsPerSec = 1'000'000'000;

struct tm LocalTime(int64_t t_ns) {
  time_t s = static_cast<time_t>(t_ns / kNsPerSec);
  struct tm tm = {};
  localtime_r(&s, &tm);
  return tm;
}

// Group `i` of a match as an integer (0 when it did not take part).
int Group(std::string_view text, const regmatch_t* m, int i, int from = 0, int len = -1) {
  if (m[i].rm_so < 0) return 0;
  std::string_view g = text.substr(static_cast<size_t>(m[i].rm_so),
                                   static_cast<size_t>(m[i].rm_eo - m[i].rm_so));
  g = g.substr(static_cast<size_t>(from), len < 0 ? std::string_view::npos
                                                  : static_cast<size_t>(len));
  return std::atoi(std::string(g).c_str());
}

// The one pattern of the names RotatedName() makes.
const regex_t& NamePattern() {
  static const regex_t pattern = [] {
    regex_t re;
    regcomp(&re,
            "^perfmonger-([0-9]{8})(-([0-9]{2})([0-9]{4})?)?(_([0-9]+))?"
            "\\.pgr(\\.zst)?$",
            REG_EXTENDED);
    return re;
  }();
  return pattern;
}

}  // namespace

std::optional<uint64_t> ParseSize(std::string_view text) {
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0]))) return std::nullopt;
  std::string s(text);
  char* end = nullptr;
  unsigned long long n = std::strtoull(s.c_str(), &end, 10);
  std::string_view unit(end);
  int shift = 0;
  if (unit == "k" || unit == "K" || unit == "KiB") shift = 10;
  else if (unit == "M" || unit == "MiB") shift = 20;
  else if (unit == "G" || unit == "GiB") shift = 30;
  else if (!unit.empty() && unit != "B") return std::nullopt;
  if (n == 0 || n > (ULLONG_MAX >> shift)) return std::nullopt;
  return static_cast<uint64_t>(n) << shift;
}

std::optional<RotatePolicy> ParseRotate(std::string_view text) {
  RotatePolicy policy;
  if (text == "daily") {
    policy.every = RotateEvery::kDay;
  } else if (text == "hourly") {
    policy.every = RotateEvery::kHour;
  } else if (auto size = ParseSize(text)) {
    policy.every = RotateEvery::kSize;
    policy.size_bytes = *size;
  } else {
    return std::nullopt;
  }
  return policy;
}

std::string RotatedName(RotateEvery every, int64_t t_ns, bool plain, int suffix) {
  struct tm tm = LocalTime(t_ns);
  char name[80];
  int n = std::snprintf(name, sizeof name, "perfmonger-%04d%02d%02d", tm.tm_year + 1900,
                        tm.tm_mon + 1, tm.tm_mday);
  if (every == RotateEvery::kHour)
    n += std::snprintf(name + n, sizeof name - n, "-%02d", tm.tm_hour);
  if (every == RotateEvery::kSize)
    n += std::snprintf(name + n, sizeof name - n, "-%02d%02d%02d", tm.tm_hour, tm.tm_min,
                       tm.tm_sec);
  if (suffix > 0) n += std::snprintf(name + n, sizeof name - n, "_%d", suffix);
  std::snprintf(name + n, sizeof name - n, "%s", plain ? ".pgr" : ".pgr.zst");
  return name;
}

int64_t NextPeriodStart(RotateEvery every, int64_t t_ns) {
  struct tm tm = LocalTime(t_ns);
  if (every == RotateEvery::kHour) {  // local hours start at :00 in every zone
    int64_t s = t_ns / kNsPerSec - tm.tm_min * 60 - tm.tm_sec + 3600;
    return s * kNsPerSec;
  }
  if (every != RotateEvery::kDay) return INT64_MAX;
  tm.tm_mday += 1;
  tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
  tm.tm_isdst = -1;  // the zone decides whether that midnight is summer time
  return int64_t{mktime(&tm)} * kNsPerSec;
}

std::optional<RotatedFile> ParseRotatedName(std::string_view name) {
  std::string s(name);
  regmatch_t m[8];
  if (regexec(&NamePattern(), s.c_str(), 8, m, 0) != 0) return std::nullopt;
  struct tm tm = {};
  int date = Group(s, m, 1);
  tm.tm_year = date / 10000 - 1900;
  tm.tm_mon = date / 100 % 100 - 1;
  tm.tm_mday = date % 100;
  tm.tm_hour = Group(s, m, 3);
  tm.tm_min = Group(s, m, 4, 0, 2);
  tm.tm_sec = Group(s, m, 4, 2, 2);
  tm.tm_isdst = -1;
  return RotatedFile{int64_t{mktime(&tm)} * kNsPerSec, Group(s, m, 6)};
}

}  // namespace pm

#include "playback/outputs/openmetrics_text.hh"

#include <charconv>

#include "proto/text.hh"

namespace pm {
namespace {

void AppendUnsigned(std::string& out, uint64_t v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

// whole "." frac, frac zero-padded to `digits`.
void AppendDecimal(std::string& out, uint64_t whole, uint64_t frac, int digits) {
  AppendUnsigned(out, whole);
  char buf[9] = {'0', '0', '0', '0', '0', '0', '0', '0', '0'};  // digits <= 9 (ns)
  for (int i = digits - 1; i >= 0; --i, frac /= 10) buf[i] = static_cast<char>('0' + frac % 10);
  out.push_back('.');
  out.append(buf, static_cast<size_t>(digits));
}

}  // namespace

void AppendScaled(std::string& out, uint64_t v, Scale scale) {
  switch (scale) {
    case Scale::kOne: AppendUnsigned(out, v); return;
    case Scale::kPerHundred: AppendDecimal(out, v / 100, v % 100, 2); return;
    case Scale::kPerThousand: AppendDecimal(out, v / 1000, v % 1000, 3); return;
    case Scale::kPerMillion: AppendDecimal(out, v / 1000000, v % 1000000, 6); return;
    case Scale::kPerBillion: AppendDecimal(out, v / 1000000000, v % 1000000000, 9); return;
    // A product past 2^64 cannot come from a real counter; written as a float
    // rather than wrapped.
    case Scale::kTimes512:
    case Scale::kTimes1024: {
      uint64_t k = scale == Scale::kTimes512 ? 512 : 1024;
      if (v <= UINT64_MAX / k) {
        AppendUnsigned(out, v * k);
      } else {
        char buf[32];
        auto r = std::to_chars(buf, buf + sizeof buf, static_cast<double>(v) * static_cast<double>(k));
        out.append(buf, r.ptr);
      }
      return;
    }
  }
}

void AppendTimestampMs(std::string& out, int64_t ms) {
  uint64_t mag = ms < 0 ? 0 - static_cast<uint64_t>(ms) : static_cast<uint64_t>(ms);
  if (ms < 0) out.push_back('-');
  AppendDecimal(out, mag / 1000, mag % 1000, 3);
}

void AppendLabelValue(std::string& out, std::string_view value) {
  for (size_t i = 0; i < value.size();) {
    unsigned char c = static_cast<unsigned char>(value[i]);
    if (c >= 0x80) {
      size_t n = Utf8SequenceLength(value.substr(i));
      if (n == 0) {
        out.append("\xef\xbf\xbd");
        ++i;
      } else {
        out.append(value.substr(i, n));
        i += n;
      }
      continue;
    }
    if (c == '\\') out.append("\\\\");
    else if (c == '"') out.append("\\\"");
    else if (c == '\n') out.append("\\n");
    else out.push_back(static_cast<char>(c));
    ++i;
  }
}

void AppendLabel(std::string& out, std::string_view name, std::string_view value) {
  out.append(name);
  out.append("=\"");
  AppendLabelValue(out, value);
  out.push_back('"');
}

std::string SanitizedLabelName(std::string_view key) {
  std::string name;
  for (char c : key) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    name.push_back(ok ? c : '_');
  }
  if (name.empty() || (name[0] >= '0' && name[0] <= '9')) name = "_" + name;
  if (name.starts_with("__")) return "meta" + name;
  return name;
}

}  // namespace pm

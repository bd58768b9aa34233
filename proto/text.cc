#include "proto/text.hh"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

namespace pm {

size_t Utf8SequenceLength(std::string_view s) {
  auto byte = [&](size_t i) { return static_cast<unsigned char>(s[i]); };
  unsigned char c = byte(0);
  size_t len;
  unsigned char lo = 0x80, hi = 0xBF;  // bounds of the second byte
  if (c >= 0xC2 && c <= 0xDF) {
    len = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    if (c == 0xE0) lo = 0xA0;  // overlong
    if (c == 0xED) hi = 0x9F;  // surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    if (c == 0xF0) lo = 0x90;  // overlong
    if (c == 0xF4) hi = 0x8F;  // above U+10FFFF
  } else {
    return 0;
  }
  if (s.size() < len || byte(1) < lo || byte(1) > hi) return 0;
  for (size_t i = 2; i < len; ++i)
    if ((byte(i) & 0xC0) != 0x80) return 0;
  return len;
}

namespace {

void AppendEscapedByte(std::string& out, unsigned char c) {
  if (c == '\n') out.append("\\n");
  else if (c == '\t') out.append("\\t");
  else if (c == '\r') out.append("\\r");
  else {
    out.append("\\x");
    AppendHexByte(out, c);
  }
}

// The UTF-8 of U+0080-U+009F: C2 80 to C2 9F.
bool IsC1(std::string_view sequence) {
  return sequence.size() == 2 && static_cast<unsigned char>(sequence[0]) == 0xC2 &&
         static_cast<unsigned char>(sequence[1]) < 0xA0;
}

}  // namespace

void AppendPrintable(std::string& out, std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    auto c = static_cast<unsigned char>(s[i]);
    size_t n = c >= 0x80 ? Utf8SequenceLength(s.substr(i)) : c >= 0x20 && c != 0x7f ? 1 : 0;
    std::string_view kept = s.substr(i, n);
    if (n != 0 && !IsC1(kept)) {
      out.append(kept);
      i += n;
      continue;
    }
    for (size_t end = i + std::max<size_t>(n, 1); i < end; ++i)
      AppendEscapedByte(out, static_cast<unsigned char>(s[i]));
  }
}

namespace {

constexpr char kDigitPairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

void WritePair(char* p, uint32_t v) { std::memcpy(p, kDigitPairs + 2 * v, 2); }

// v < 10^4 as exactly 4 digits, leading zeros kept.
void Write4(char* p, uint32_t v) {
  WritePair(p, v / 100);
  WritePair(p + 2, v % 100);
}

// v < 10^8 as exactly 8 digits: the halves are independent, so their
// multiplications overlap instead of forming one chain of divisions.
void Write8(char* p, uint32_t v) {
  Write4(p, v / 10000);
  Write4(p + 4, v % 10000);
}

// v < 10^4 without leading zeros.
char* WriteUpTo4(char* p, uint32_t v) {
  if (v < 10) {
    *p = static_cast<char>('0' + v);
    return p + 1;
  }
  if (v < 100) {
    WritePair(p, v);
    return p + 2;
  }
  if (v < 1000) {
    *p = static_cast<char>('0' + v / 100);
    WritePair(p + 1, v % 100);
    return p + 3;
  }
  Write4(p, v);
  return p + 4;
}

// v < 10^8 without leading zeros.
char* WriteUpTo8(char* p, uint32_t v) {
  if (v < 10000) return WriteUpTo4(p, v);
  p = WriteUpTo4(p, v / 10000);
  Write4(p, v % 10000);
  return p + 4;
}

// The last `digits` digits of v (leading zeros kept) ending at `end`.
void WriteDigitsBackwards(char* end, uint64_t v, int digits) {
  for (; digits >= 2; digits -= 2, v /= 100) WritePair(end -= 2, static_cast<uint32_t>(v % 100));
  if (digits == 1) end[-1] = static_cast<char>('0' + v % 10);
}

// n / 10^P and its remainder as P digits: constant divisors, no div.
template <int P>
char* WriteScaled(char* p, uint64_t n) {
  constexpr uint64_t kUnit = P == 1 ? 10 : P == 2 ? 100 : 1000;
  uint64_t whole = n / kUnit;
  if (whole < 10) *p++ = static_cast<char>('0' + whole);  // most rates
  else p = WriteUint(p, whole);
  *p = '.';
  WriteDigitsBackwards(p + 1 + P, n % kUnit, P);
  return p + 1 + P;
}

// Precision 0-3 without the general algorithm when the answer is certain.
// Below 2^52, s = fl(|v|·10^p) is the exact product x rounded once, and
// every half-integer k+½ is a double: rounding is monotonic, so x < k+½
// gives s <= k+½, and x > k+½ gives s >= k+½. Unless s lands on a
// half-integer, s and x round to the same integer. Null when it does.
constexpr double kScale[] = {1, 10, 100, 1000};

// |v|·10^precision rounded as the text shows it (its digits without the
// point), or false when that needs the general algorithm.
bool ScaledDigits(double v, int precision, uint64_t& n) {
  if (precision < 0 || precision > 3) return false;
  double s = std::fabs(v) * kScale[precision];
  if (!(s < 0x1p52)) return false;
  auto whole = static_cast<uint64_t>(s);
  double frac = s - static_cast<double>(whole);  // exact
  if (frac == 0.5) return false;
  n = whole + (frac > 0.5 ? 1 : 0);
  return true;
}

char* WriteFixedFast(char* p, double v, int precision) {
  uint64_t n = 0;
  if (!ScaledDigits(v, precision, n)) return nullptr;
  if (std::signbit(v)) *p++ = '-';
  switch (precision) {
    case 1: return WriteScaled<1>(p, n);
    case 2: return WriteScaled<2>(p, n);
    case 3: return WriteScaled<3>(p, n);
    default: return WriteUint(p, n);
  }
}

}  // namespace

char* WriteUint(char* p, uint64_t v) {
  constexpr uint64_t k1e8 = 100000000;
  if (v < k1e8) return WriteUpTo8(p, static_cast<uint32_t>(v));
  uint64_t high = v / k1e8;
  auto low = static_cast<uint32_t>(v % k1e8);
  if (high < k1e8) {
    p = WriteUpTo8(p, static_cast<uint32_t>(high));
  } else {  // 17 to 20 digits
    p = WriteUpTo4(p, static_cast<uint32_t>(high / k1e8));
    Write8(p, static_cast<uint32_t>(high % k1e8));
    p += 8;
  }
  Write8(p, low);
  return p + 8;
}

char* WriteInt(char* p, int64_t v) {
  if (v >= 0) return WriteUint(p, static_cast<uint64_t>(v));
  *p++ = '-';
  return WriteUint(p, 0 - static_cast<uint64_t>(v));
}

char* WriteFixedNonZero(char* p, double v, int precision) {
  if (std::isnan(v)) return Put(p, "NaN");
  if (std::isinf(v)) return Put(p, v > 0 ? "+Inf" : "-Inf");
  if (char* end = WriteFixedFast(p, v, precision)) return end;
  // Exact (Ryu printf) for everything else.
  return std::to_chars(p, p + kFixedTextMax, v, std::chars_format::fixed, precision).ptr;
}

// The digits n < 2^52 and 10^precision are exact doubles, so n / 10^p is
// the decimal value correctly rounded, as from_chars reads the text.
double FixedValue(double v, int precision) {
  if (v == 0 || std::isinf(v)) return v;  // "-0.00" reads as -0.0
  if (std::isnan(v)) return std::numeric_limits<double>::quiet_NaN();
  uint64_t n = 0;
  if (ScaledDigits(v, precision, n)) {
    const double r = static_cast<double>(n) / kScale[precision];
    return std::signbit(v) ? -r : r;
  }
  char buf[kFixedTextMax];
  double r = 0;
  std::from_chars(buf, WriteFixedNonZero(buf, v, precision), r);
  return r;
}

void AppendFixed(std::string& out, double v, int precision) {
  char buf[kFixedTextMax];
  out.append(buf, WriteFixed(buf, v, precision));
}

std::string Printable(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  AppendPrintable(out, s);
  return out;
}

std::string PrintableLines(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t nl; (nl = text.find('\n')) != std::string_view::npos; text.remove_prefix(nl + 1)) {
    AppendPrintable(out, text.substr(0, nl));
    out.push_back('\n');
  }
  AppendPrintable(out, text);
  return out;
}

}  // namespace pm

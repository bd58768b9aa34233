#include "proto/pgr_delta.hh"

#include <bit>
#include <cstring>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "common/error.hh"
#include "proto/digits.hh"

namespace pm {
namespace {

constexpr std::string_view kSampleStart = "{\"t\":";

// How many bytes `a` and `b` have in common from the start, up to `n`:
// 16 at a time where SSE2 is (every x86-64), else 8.
size_t CommonPrefix(const char* a, const char* b, size_t n) {
  size_t k = 0;
#ifdef __SSE2__
  for (; k + 16 <= n; k += 16) {
    __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a + k));
    __m128i y = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + k));
    if (unsigned same = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(x, y)));
        same != 0xFFFF)
      return k + static_cast<size_t>(std::countr_one(same));
  }
#endif
  for (; k + 8 <= n; k += 8) {
    if (uint64_t d = digits::Load8(a + k) ^ digits::Load8(b + k))
      return k + static_cast<size_t>(std::countr_zero(d)) / 8;
  }
  while (k < n && a[k] == b[k]) ++k;
  return k;
}

// Where `line` and `ref` first differ from `line[at + shift]` and `ref[at]`
// on, as an offset in `ref`.
size_t NextDifference(std::string_view line, std::string_view ref, size_t at,
                      ptrdiff_t shift) {
  size_t in_line = at + static_cast<size_t>(shift);
  return at + CommonPrefix(line.data() + in_line, ref.data() + at,
                           std::min(line.size() - in_line, ref.size() - at));
}

char* Append(char* out, std::string_view from, size_t begin, size_t end) {
  std::memcpy(out, from.data() + begin, end - begin);
  return out + (end - begin);
}

// An unsigned integer as JSON writes one (no leading zero) at `p[i]`.
bool ReadCounter(std::string_view line, size_t& i, uint64_t& v) {
  size_t start = i;
  if (i > line.size() || !digits::ParseDigits(line.data(), i, line.size(), v)) return false;
  return i - start == 1 || (i > start && line[start] != '0');
}

// A difference: an optional '-', then digits; negative ones wrap.
bool ReadDifference(std::string_view line, size_t& i, uint64_t& v) {
  if (i >= line.size()) return false;
  bool negative = line[i] == '-';
  size_t start = i += negative;
  if (!digits::ParseDigits(line.data(), i, line.size(), v) || i == start) return false;
  if (negative) v = 0 - v;
  return true;
}

}  // namespace

bool DeltaEncoder::KeyframeDue(int64_t mono_ns) const {
  return since_keyframe_ + 1 >= kKeyframeEvery || mono_ns - keyframe_mono_ns_ >= kKeyframeMaxNs;
}

std::string_view DeltaEncoder::Encode(std::string_view line, int64_t mono_ns) {
  if (have_prev_ && !KeyframeDue(mono_ns)) {
    if (size_t n = EncodeDifferences(line)) {
      ++since_keyframe_;
      return {out_.data(), n};
    }
  }
  return StartKeyframe(line, mono_ns);
}

std::string_view DeltaEncoder::StartKeyframe(std::string_view line, int64_t mono_ns) {
  have_prev_ = line.starts_with(kSampleStart) && prev_.Split(line);
  since_keyframe_ = 0;
  keyframe_mono_ns_ = mono_ns;
  ++keyframes_;
  return line;
}

// Compares `line` with the baseline's text and stops only where they
// differ: there an integer changed (its difference is written, the text
// before it copied from the baseline's zeros) or the shape did (0 is
// returned; the half-updated baseline is then rebuilt as a keyframe).
size_t DeltaEncoder::EncodeDifferences(std::string_view line) {
  Baseline& b = prev_;
  char* base = out_.Reserve(b.MaxLineBytes() + kDeltaLinePrefix.size());
  char* out = base + kDeltaLinePrefix.size() - 1;  // the '{' goes under the prefix's ','
  ptrdiff_t shift = 0;  // how far the line is ahead of the baseline's text
  size_t at = 0, zeros_from = 0, k = 0;
  for (;;) {
    at = NextDifference(line, b.Text(), at, shift);
    if (at == b.size && at + static_cast<size_t>(shift) == line.size()) break;
    size_t j = b.IntegerAround(k, at);
    if (j == b.count()) return 0;
    b.Move(k, j, shift);
    out = Append(out, b.zeros, zeros_from, b.zero_at[j]);
    size_t from = b.start[j] + static_cast<size_t>(shift), to = from;
    uint64_t now;
    if (!ReadCounter(line, to, now)) return 0;
    out = digits::WriteInt(out, static_cast<int64_t>(now - b.values[j]));
    b.values[j] = now;
    at = b.end[j];
    shift = static_cast<ptrdiff_t>(to - at);
    b.start[j] = static_cast<uint32_t>(from);
    b.end[j] = static_cast<uint32_t>(to);
    zeros_from = b.zero_at[j] + 1;
    k = j + 1;
  }
  b.Move(k, b.count(), shift);
  out = Append(out, b.zeros, zeros_from, b.zeros.size());
  std::memcpy(b.text.Reserve(line.size()), line.data(), line.size());
  b.size = line.size();
  std::memcpy(base, kDeltaLinePrefix.data(), kDeltaLinePrefix.size());
  return static_cast<size_t>(out - base);
}

std::string_view DeltaDecoder::Decode(std::string_view line) {
  if (!DeltaDecoder::IsDelta(line)) {
    if (line.starts_with(kSampleStart)) have_prev_ = prev_.Split(line);
    return line;
  }
  if (!have_prev_)
    throw FormatError("a difference line without a keyframe before it");
  size_t n = AddDifferences(line);
  if (n == 0) {
    have_prev_ = false;
    throw FormatError("a difference line whose shape is not the line before's");
  }
  std::swap(prev_.text, next_);
  prev_.size = n;
  return prev_.Text();
}

// The encoder's walk the other way: the line compared with the baseline's
// zeros, stopping where a difference is not 0; the text around unchanged
// integers copied from the baseline's text.
size_t DeltaDecoder::AddDifferences(std::string_view line) {
  Baseline& b = prev_;
  char* base = next_.Reserve(b.MaxLineBytes());
  char* out = base;
  std::string_view body = line.substr(kDeltaLinePrefix.size() - 1);  // ',' for '{'
  ptrdiff_t shift = 0;  // how far the body is ahead of the zeros
  size_t at = 1, text_from = 0, k = 0;
  for (;;) {
    at = NextDifference(body, b.zeros, at, shift);
    if (at == b.zeros.size() && at + static_cast<size_t>(shift) == body.size()) break;
    size_t j = b.ZeroAround(k, at);
    if (j == b.count()) return 0;
    b.Move(k, j, (out - base) - static_cast<ptrdiff_t>(text_from));
    out = Append(out, b.Text(), text_from, b.start[j]);
    size_t to = b.zero_at[j] + static_cast<size_t>(shift);
    uint64_t difference;
    if (!ReadDifference(body, to, difference)) return 0;
    b.values[j] += difference;
    text_from = b.end[j];
    b.start[j] = static_cast<uint32_t>(out - base);
    out = digits::WriteUint(out, b.values[j]);
    b.end[j] = static_cast<uint32_t>(out - base);
    at = b.zero_at[j] + 1;
    shift = static_cast<ptrdiff_t>(to - at);
    k = j + 1;
  }
  b.Move(k, b.count(), (out - base) - static_cast<ptrdiff_t>(text_from));
  out = Append(out, b.Text(), text_from, b.size);
  return static_cast<size_t>(out - base);
}

}  // namespace pm

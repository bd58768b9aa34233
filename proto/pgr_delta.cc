#include "proto/pgr_delta.hh"

#include "common/error.hh"
#include "proto/json.hh"

namespace pm {
namespace {

constexpr std::string_view kSampleStart = "{\"t\":";

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// The index just past the string literal that starts at `i` (a '"').
size_t SkipString(std::string_view s, size_t i) {
  for (++i; i < s.size(); ++i) {
    if (s[i] == '\\') ++i;
    else if (s[i] == '"') return i + 1;
  }
  return s.size();
}

// Parses the digits at `i`, advancing it; false on overflow or a
// fraction/exponent (not a counter this transform may touch).
bool ParseDigits(std::string_view s, size_t& i, uint64_t& v) {
  v = 0;
  for (; i < s.size() && IsDigit(s[i]); ++i) {
    uint64_t d = static_cast<uint64_t>(s[i] - '0');
    if (v > (UINT64_MAX - d) / 10) return false;
    v = v * 10 + d;
  }
  return i == s.size() || (s[i] != '.' && s[i] != 'e' && s[i] != 'E');
}

// `shape`'s text with `numbers` put back, from text offset `from`.
void Interleave(const LineShape& shape, const std::vector<uint64_t>& numbers,
                bool as_signed, size_t from, std::string& out) {
  for (size_t k = 0; k < numbers.size(); ++k) {
    out.append(shape.text, from, shape.at[k] - from);
    from = shape.at[k];
    if (as_signed) AppendInt(out, static_cast<int64_t>(numbers[k]));
    else AppendUint(out, numbers[k]);
  }
  out.append(shape.text, from);
}

}  // namespace

bool LineShape::Split(std::string_view body, std::string_view lead, bool signed_ok) {
  text.assign(lead);
  at.clear();
  values.clear();
  size_t run = 0;  // start of the text not yet copied: copied a run at a time
  for (size_t i = 0; i < body.size();) {
    char c = body[i];
    if (c == '"') {
      i = SkipString(body, i);
    } else if (IsDigit(c) || c == '-') {
      text.append(body.data() + run, i - run);
      bool negative = c == '-';
      if (negative && (!signed_ok || i + 1 == body.size() || !IsDigit(body[++i])))
        return false;
      uint64_t v;
      if (!ParseDigits(body, i, v)) return false;
      at.push_back(static_cast<uint32_t>(text.size()));
      values.push_back(negative ? 0 - v : v);
      run = i;
    } else {
      ++i;
    }
  }
  text.append(body.data() + run, body.size() - run);
  return true;
}

bool DeltaEncoder::NeedsKeyframe(int64_t mono_ns) const {
  return !have_prev_ || since_keyframe_ + 1 >= kKeyframeEvery ||
         mono_ns - keyframe_mono_ns_ >= kKeyframeMaxNs || !cur_.SameShape(prev_);
}

std::string_view DeltaEncoder::Encode(std::string_view line, int64_t mono_ns) {
  if (!line.starts_with(kSampleStart) || !cur_.Split(line, {}, false)) {
    have_prev_ = false;  // not encodable: the next one starts afresh
    ++keyframes_;
    return line;
  }
  if (NeedsKeyframe(mono_ns)) {
    std::swap(prev_, cur_);
    have_prev_ = true;
    since_keyframe_ = 0;
    keyframe_mono_ns_ = mono_ns;
    ++keyframes_;
    return line;
  }
  for (size_t k = 0; k < cur_.values.size(); ++k) {
    uint64_t now = cur_.values[k];
    cur_.values[k] = now - prev_.values[k];  // wraps: a reset reads back exactly
    prev_.values[k] = now;
  }
  out_.assign(kDeltaLinePrefix);
  Interleave(cur_, cur_.values, true, 1, out_);  // the shape minus its '{'
  ++since_keyframe_;
  return out_;
}

std::string_view DeltaDecoder::Decode(std::string_view line) {
  if (!DeltaDecoder::IsDelta(line)) {
    if (line.starts_with(kSampleStart)) have_prev_ = prev_.Split(line, {}, false);
    return line;
  }
  if (!have_prev_)
    throw FormatError("a difference line without a keyframe before it");
  if (!cur_.Split(line.substr(kDeltaLinePrefix.size()), "{", true) ||
      !cur_.SameShape(prev_))
    throw FormatError("a difference line whose shape is not the line before's");
  for (size_t k = 0; k < cur_.values.size(); ++k) prev_.values[k] += cur_.values[k];
  out_.clear();
  Interleave(prev_, prev_.values, false, 0, out_);
  return out_;
}

}  // namespace pm

#include "proto/pgr_baseline.hh"

#include <algorithm>
#include <bit>
#include <cstring>
#include <utility>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "proto/digits.hh"
#include "proto/text.hh"

namespace pm {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// The index just past the string literal that starts at `i` (a '"').
size_t SkipString(std::string_view s, size_t i) {
  for (++i; i < s.size(); ++i) {
    if (s[i] == '\\') ++i;
    else if (s[i] == '"') return i + 1;
  }
  return s.size();
}

// An unsigned integer as JSON writes one (no leading zero) at `line[i]`,
// advancing `i` past it.
bool ReadCounter(std::string_view line, size_t& i, uint64_t& v) {
  size_t start = i;
  if (!digits::ParseDigits(line.data(), i, line.size(), v) || i == start) return false;
  return i - start == 1 || line[start] != '0';
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

}  // namespace

char* LineBuffer::Reserve(size_t bytes) {
  if (bytes > capacity_) {
    data_.reset(new char[bytes]);
    capacity_ = bytes;
  }
  return data_.get();
}

bool Baseline::Split(std::string_view line) {
  ++splits_;
  mapped_ = false;
  zeros_.clear();
  start_.clear();
  end_.clear();
  zero_at_.clear();
  values_.clear();
  size_t run = 0;  // start of the text not yet copied to zeros_
  for (size_t i = 0; i < line.size();) {
    if (line[i] == '"') {
      i = SkipString(line, i);
    } else if (IsDigit(line[i])) {
      zeros_.append(line, run, i - run);
      zero_at_.push_back(static_cast<uint32_t>(zeros_.size()));
      zeros_.push_back('0');
      start_.push_back(static_cast<uint32_t>(i));
      uint64_t v;
      if (!ReadCounter(line, i, v)) return false;
      if (i < line.size() && (line[i] == '.' || line[i] == 'e' || line[i] == 'E')) return false;
      end_.push_back(static_cast<uint32_t>(i));
      values_.push_back(v);
      run = i;
    } else if (line[i] == '-') {
      return false;
    } else {
      ++i;
    }
  }
  zeros_.append(line, run);
  zero_after_.resize(zeros_.size() + 1);
  for (size_t p = 0, k = 0; p < zero_after_.size(); ++p) {
    while (k < count() && zero_at_[k] + 1 < p) ++k;
    zero_after_[p] = static_cast<uint32_t>(k);
  }
  std::memcpy(text_.Reserve(line.size()), line.data(), line.size());
  size_ = line.size();
  return true;
}

// Compares `line` with the text and stops only where they differ: there
// an integer changed (its difference is written, the text before it
// copied from zeros_) or the shape did.
size_t Baseline::Advance(std::string_view line, char* out) {
  mapped_ = false;
  char* const base = out;
  ptrdiff_t shift = 0;  // how far the line is ahead of the text
  size_t at = 0, zeros_from = 0, k = 0;
  for (;;) {
    at = NextDifference(line, Text(), at, shift);
    if (at == size_ && at + static_cast<size_t>(shift) == line.size()) break;
    size_t j = IntegerAround(k, at);
    if (j == count()) return 0;
    Move(k, j, shift);
    out = Append(out, zeros_, zeros_from, zero_at_[j]);
    size_t from = start_[j] + static_cast<size_t>(shift), to = from;
    uint64_t now;
    if (!ReadCounter(line, to, now)) return 0;
    out = WriteInt(out, static_cast<int64_t>(now - values_[j]));
    values_[j] = now;
    at = end_[j];
    shift = static_cast<ptrdiff_t>(to - at);
    start_[j] = static_cast<uint32_t>(from);
    end_[j] = static_cast<uint32_t>(to);
    zeros_from = zero_at_[j] + 1;
    k = j + 1;
  }
  Move(k, count(), shift);
  out = Append(out, zeros_, zeros_from, zeros_.size());
  std::memcpy(text_.Reserve(line.size()), line.data(), line.size());
  size_ = line.size();
  return static_cast<size_t>(out - base);
}

// Advance's walk, keeping the text: the changed integers are written
// into it only once the whole line matched, so a failure leaves the text
// the line before.
bool Baseline::Follow(std::string_view line) {
  patched_.clear();
  ptrdiff_t shift = 0;  // how far the line is ahead of the text
  bool resized = false;
  size_t at = 0, k = 0;
  for (;;) {
    at = NextDifference(line, Text(), at, shift);
    if (at == size_ && at + static_cast<size_t>(shift) == line.size()) break;
    size_t j = IntegerAround(k, at);
    if (j == count()) return false;
    Move(k, j, shift);
    size_t from = start_[j] + static_cast<size_t>(shift), to = from;
    if (!ReadCounter(line, to, values_[j])) return false;
    at = end_[j];
    shift = static_cast<ptrdiff_t>(to - at);
    resized |= shift != 0;
    start_[j] = static_cast<uint32_t>(from);
    end_[j] = static_cast<uint32_t>(to);
    patched_.push_back(static_cast<uint32_t>(j));
    k = j + 1;
  }
  Move(k, count(), shift);
  if (resized) {
    mapped_ = false;
    std::memcpy(text_.Reserve(line.size()), line.data(), line.size());
    size_ = line.size();
    return true;
  }
  for (uint32_t j : patched_)  // same places in the line as in the text
    std::memcpy(text_.data() + start_[j], line.data() + start_[j], end_[j] - start_[j]);
  return true;
}

bool Baseline::Skim(std::string_view line) {
  if (line.size() == size_ && size_ >= 16) {
    if (!mapped_) MapIntegers();
    if (!long_integer_ && SameLayout(line)) {
      for (uint32_t k : chunks_)  // those that differ
        std::memcpy(text_.data() + k, line.data() + k, 16);
      return true;
    }
  }
  return Follow(line);
}

// `line`, of the text's length, differs from it only in digits inside
// integers, none of which gained a leading zero: Follow would walk it
// with no integer moving, and take it. The chunks of 16 bytes that
// differ go to chunks_ (the last one overlaps the one before).
bool Baseline::SameLayout(std::string_view line) {
  chunks_.clear();
#ifdef __SSE2__
  const __m128i zero = _mm_set1_epi8('0'), nine = _mm_set1_epi8(9);
  auto chunk_fits = [&](size_t k) {
    auto load = [k](const char* p) {
      return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + k));
    };
    __m128i now = load(line.data());
    __m128i same = _mm_cmpeq_epi8(load(text_.data()), now);
    if (_mm_movemask_epi8(same) == 0xFFFF) return true;
    chunks_.push_back(static_cast<uint32_t>(k));
    __m128i offset = _mm_sub_epi8(now, zero);
    __m128i digit = _mm_cmpeq_epi8(_mm_min_epu8(offset, nine), offset);
    __m128i new_lead_zero = _mm_and_si128(load(leads_.data()), _mm_cmpeq_epi8(now, zero));
    __m128i may_change = _mm_andnot_si128(new_lead_zero, _mm_and_si128(load(digits_.data()), digit));
    return _mm_movemask_epi8(_mm_or_si128(same, may_change)) == 0xFFFF;
  };
#else
  auto chunk_fits = [&](size_t k) {
    bool same = true;
    for (size_t i = k; i < k + 16; ++i) {
      char was = text_.data()[i], now = line[i];
      if (was == now) continue;
      same = false;
      if (!digits_[i] || !IsDigit(now) || (leads_[i] && now == '0')) return false;
    }
    if (!same) chunks_.push_back(static_cast<uint32_t>(k));
    return true;
  };
#endif
  size_t k = 0;
  for (; k + 16 <= size_; k += 16)
    if (!chunk_fits(k)) return false;
  return k == size_ || chunk_fits(size_ - 16);  // the tail, in a chunk that overlaps
}

void Baseline::MapIntegers() {
  digits_.assign(size_, 0);
  leads_.assign(size_, 0);
  long_integer_ = false;
  for (size_t k = 0; k < count(); ++k) {
    std::fill(digits_.begin() + start_[k], digits_.begin() + end_[k], char(0xFF));
    if (end_[k] - start_[k] > 1) leads_[start_[k]] = char(0xFF);
    long_integer_ |= end_[k] - start_[k] >= 20;
  }
  mapped_ = true;
}

// Advance's walk the other way: the differences compared with zeros_,
// stopping where one is not 0; the text around unchanged integers copied
// from the text.
size_t Baseline::AddDifferences(std::string_view differences) {
  mapped_ = false;
  char* const base = next_.Reserve(MaxLineBytes());
  char* out = base;
  ptrdiff_t shift = 0;  // how far the differences are ahead of zeros_
  size_t at = 1, text_from = 0, k = 0;
  for (;;) {
    at = NextDifference(differences, zeros_, at, shift);
    if (at == zeros_.size() && at + static_cast<size_t>(shift) == differences.size()) break;
    size_t j = ZeroAround(k, at);
    if (j == count()) return 0;
    Move(k, j, (out - base) - static_cast<ptrdiff_t>(text_from));
    out = Append(out, Text(), text_from, start_[j]);
    size_t to = zero_at_[j] + static_cast<size_t>(shift);
    uint64_t difference;
    if (!ReadDifference(differences, to, difference)) return 0;
    values_[j] += difference;
    text_from = end_[j];
    start_[j] = static_cast<uint32_t>(out - base);
    out = WriteUint(out, values_[j]);
    end_[j] = static_cast<uint32_t>(out - base);
    at = zero_at_[j] + 1;
    shift = static_cast<ptrdiff_t>(to - at);
    k = j + 1;
  }
  Move(k, count(), (out - base) - static_cast<ptrdiff_t>(text_from));
  out = Append(out, Text(), text_from, size_);
  std::swap(text_, next_);
  size_ = static_cast<size_t>(out - base);
  return size_;
}

// AddDifferences' walk without the text: the sums are applied only once
// the whole line matched, so a failure leaves the baseline as it was.
bool Baseline::SumDifferences(std::string_view differences) {
  changes_.clear();
  ptrdiff_t shift = 0;  // how far the differences are ahead of zeros_
  size_t at = 1, k = 0;
  for (;;) {
    at = NextDifference(differences, zeros_, at, shift);
    if (at == zeros_.size() && at + static_cast<size_t>(shift) == differences.size()) break;
    size_t j = ZeroAround(k, at);
    if (j == count()) return false;
    size_t to = zero_at_[j] + static_cast<size_t>(shift);
    uint64_t difference;
    if (!ReadDifference(differences, to, difference)) return false;
    changes_.push_back({j, difference});
    at = zero_at_[j] + 1;
    shift = static_cast<ptrdiff_t>(to - at);
    k = j + 1;
  }
  for (const auto& [j, difference] : changes_) values_[j] += difference;
  return true;
}

// The text from the shape and the values: what AddDifferences would have
// written (a split line's integers are in the form WriteUint writes).
void Baseline::Render() {
  mapped_ = false;
  char* const base = text_.Reserve(MaxLineBytes());
  char* out = base;
  size_t from = 0;
  for (size_t k = 0; k < count(); ++k) {
    out = Append(out, zeros_, from, zero_at_[k]);
    start_[k] = static_cast<uint32_t>(out - base);
    out = WriteUint(out, values_[k]);
    end_[k] = static_cast<uint32_t>(out - base);
    from = zero_at_[k] + 1;
  }
  out = Append(out, zeros_, from, zeros_.size());
  size_ = static_cast<size_t>(out - base);
}

// Between two changed integers lie a dozen unchanged ones or more: the
// scans stride over 8 at a time first.
size_t Baseline::IntegerAround(size_t from, size_t at) const {
  size_t k = from, n = end_.size();
  while (k + 8 < n && end_[k + 8] < at) k += 8;
  while (k < n && end_[k] < at) ++k;
  return k < n && start_[k] <= at ? k : n;
}

// zeros_ never moves between splits: a table answers at once.
size_t Baseline::ZeroAround(size_t from, size_t at) const {
  size_t k = std::max<size_t>(from, zero_after_[at]), n = zero_at_.size();
  return k < n && zero_at_[k] <= at ? k : n;
}

void Baseline::Move(size_t from, size_t to, ptrdiff_t by) {
  if (by == 0) return;
  for (size_t k = from; k < to; ++k) {
    start_[k] = static_cast<uint32_t>(start_[k] + by);
    end_[k] = static_cast<uint32_t>(end_[k] + by);
  }
}

}  // namespace pm

#include "playback/reading/reader_baseline.hh"

#include <algorithm>
#include <cstring>
#include <utility>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "proto/digits.hh"
#include "proto/pgr_walk.hh"
#include "proto/text.hh"

namespace pm {
namespace {

using walk::Append;
using walk::IsDigit;
using walk::NextDifference;
using walk::ReadCounter;

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

// Advance's walk, keeping the text: the changed integers are written
// into it only once the whole line matched, so a failure leaves the text
// the line before.
bool ReaderBaseline::Follow(std::string_view line) {
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
    CopyText(line);
    return true;
  }
  for (uint32_t j : patched_)  // same places in the line as in the text
    std::memcpy(text_.data() + start_[j], line.data() + start_[j], end_[j] - start_[j]);
  return true;
}

bool ReaderBaseline::Skim(std::string_view line) {
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
bool ReaderBaseline::SameLayout(std::string_view line) {
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

void ReaderBaseline::MapIntegers() {
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
size_t ReaderBaseline::AddDifferences(std::string_view differences) {
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
bool ReaderBaseline::SumDifferences(std::string_view differences) {
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
void ReaderBaseline::Render() {
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

}  // namespace pm

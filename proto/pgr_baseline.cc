#include "proto/pgr_baseline.hh"

#include <cstring>

#include "proto/pgr_walk.hh"
#include "proto/text.hh"

namespace pm {
namespace {

using walk::Append;
using walk::NextDifference;
using walk::ReadCounter;

// The index just past the string literal that starts at `i` (a '"').
size_t SkipString(std::string_view s, size_t i) {
  for (++i; i < s.size(); ++i) {
    if (s[i] == '\\') ++i;
    else if (s[i] == '"') return i + 1;
  }
  return s.size();
}

}  // namespace

char* LineBuffer::Reserve(size_t bytes) {
  if (bytes > capacity_) {
    data_.reset(new char[bytes]);
    capacity_ = bytes;
  }
  return data_.get();
}

void Baseline::CopyText(std::string_view line) {
  std::memcpy(text_.Reserve(line.size()), line.data(), line.size());
  size_ = line.size();
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
    } else if (walk::IsDigit(line[i])) {
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
  CopyText(line);
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
  CopyText(line);
  return static_cast<size_t>(out - base);
}

}  // namespace pm

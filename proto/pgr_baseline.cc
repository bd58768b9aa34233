#include "proto/pgr_baseline.hh"

#include <cstring>

#include "proto/digits.hh"

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

// A plain unsigned integer at `line[i]` (no leading zero, no fraction or
// exponent after it), advancing `i` past it.
bool ReadPlainInteger(std::string_view line, size_t& i, uint64_t& v) {
  size_t start = i;
  if (!digits::ParseDigits(line.data(), i, line.size(), v)) return false;
  if (i - start > 1 && line[start] == '0') return false;
  return i == line.size() || (line[i] != '.' && line[i] != 'e' && line[i] != 'E');
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
  zeros.clear();
  start.clear();
  end.clear();
  zero_at.clear();
  values.clear();
  size_t run = 0;  // start of the text not yet copied to zeros
  for (size_t i = 0; i < line.size();) {
    if (line[i] == '"') {
      i = SkipString(line, i);
    } else if (IsDigit(line[i])) {
      zeros.append(line, run, i - run);
      zero_at.push_back(static_cast<uint32_t>(zeros.size()));
      zeros.push_back('0');
      start.push_back(static_cast<uint32_t>(i));
      uint64_t v;
      if (!ReadPlainInteger(line, i, v)) return false;
      end.push_back(static_cast<uint32_t>(i));
      values.push_back(v);
      run = i;
    } else if (line[i] == '-') {
      return false;
    } else {
      ++i;
    }
  }
  zeros.append(line, run);
  std::memcpy(text.Reserve(line.size()), line.data(), line.size());
  size = line.size();
  return true;
}

// Between two changed integers lie a dozen unchanged ones or more: the
// scans stride over 8 at a time first.
size_t Baseline::IntegerAround(size_t from, size_t at) const {
  size_t k = from, n = end.size();
  while (k + 8 < n && end[k + 8] < at) k += 8;
  while (k < n && end[k] < at) ++k;
  return k < n && start[k] <= at ? k : n;
}

size_t Baseline::ZeroAround(size_t from, size_t at) const {
  size_t k = from, n = zero_at.size();
  while (k + 8 < n && zero_at[k + 8] + 1 < at) k += 8;
  while (k < n && zero_at[k] + 1 < at) ++k;
  return k < n && zero_at[k] <= at ? k : n;
}

void Baseline::Move(size_t from, size_t to, ptrdiff_t by) {
  if (by == 0) return;
  for (size_t k = from; k < to; ++k) {
    start[k] = static_cast<uint32_t>(start[k] + by);
    end[k] = static_cast<uint32_t>(end[k] + by);
  }
}

}  // namespace pm

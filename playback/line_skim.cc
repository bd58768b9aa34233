#include "playback/line_skim.hh"

#include <simdjson.h>

#include <new>
#include <string_view>

namespace pm {
namespace {

constexpr size_t kFirstCapacity = 64 * 1024;  // a sample line of a big machine fits

// A structural character as the shape keeps it: brackets, colon, comma and
// quote as themselves; every byte that can start a number or a literal as
// 's' (their values differ from line to line); anything else as a byte no
// learned shape holds, so a scalar starting with garbage is never vouched
// for.
struct ShapeClasses {
  char of[256];
  constexpr ShapeClasses() : of() {
    for (char& c : of) c = '\x7f';
    for (char c : std::string_view("{}[]:,\"")) of[static_cast<unsigned char>(c)] = c;
    for (char c : std::string_view("-0123456789tfn")) of[static_cast<unsigned char>(c)] = 's';
  }
};
constexpr ShapeClasses kShape;

char ShapeOf(char c) { return kShape.of[static_cast<unsigned char>(c)]; }

}  // namespace

// The run-time dispatched implementation (haswell, icelake, ...): what the
// DOM parser uses, stage 1 alone.
struct LineSkim::Pass {
  std::unique_ptr<simdjson::internal::dom_parser_implementation> impl;
  size_t capacity = 0;

  bool Fit(size_t length) {
    // simdjson's contract: a capacity above the length.
    if (length < capacity) return true;
    if (length >= kMaxLine) return false;
    size_t want = capacity == 0 ? kFirstCapacity : capacity;
    while (want <= length) want *= 2;
    simdjson::error_code e =
        impl ? impl->set_capacity(want)
             : simdjson::get_active_implementation()->create_dom_parser_implementation(
                   want, 1, impl);
    if (e == simdjson::MEMALLOC) throw std::bad_alloc();
    if (e) return false;
    capacity = want;
    return true;
  }
};

LineSkim::LineSkim() : pass_(std::make_unique<Pass>()) {}
LineSkim::~LineSkim() = default;

// Stage 1 reads only [line, line + size): its last block is copied into a
// padded scratch block, so the line needs no padding of its own.
const uint32_t* LineSkim::Structurals(std::string_view line, size_t& count) {
  if (line.empty() || !pass_->Fit(line.size())) return nullptr;
  auto* bytes = reinterpret_cast<const uint8_t*>(line.data());
  if (pass_->impl->stage1(bytes, line.size(), simdjson::stage1_mode::regular)) return nullptr;
  count = pass_->impl->n_structural_indexes;
  return pass_->impl->structural_indexes.get();
}

void LineSkim::Learn(std::string_view line) {
  shape_.clear();
  strings_.clear();
  size_t count = 0;
  const uint32_t* at = Structurals(line, count);
  if (!at) return;  // nothing vouched for until a line stage 1 accepts
  shape_.resize(count);
  for (size_t i = 0; i < count; ++i) {
    shape_[i] = ShapeOf(line[at[i]]);
    if (shape_[i] == '"' && i + 1 < count)  // a key: up to the colon after it
      strings_.push_back({i, std::string(line.substr(at[i], at[i + 1] - at[i]))});
  }
}

bool LineSkim::Vouches(std::string_view line) {
  size_t count = 0;
  const uint32_t* at = Structurals(line, count);
  if (!at || count != shape_.size() || count == 0) return false;
  // No branch per character: the compare runs at the speed of its loads.
  unsigned diff = 0;
  for (size_t i = 0; i < count; ++i)
    diff |= static_cast<unsigned char>(ShapeOf(line[at[i]]) ^ shape_[i]);
  if (diff != 0) return false;
  // The strings (in a sample, its few keys) byte for byte: a member the
  // reader treats otherwise is another line.
  for (const LearnedString& s : strings_)
    if (line.substr(at[s.index], at[s.index + 1] - at[s.index]) != s.text) return false;
  return true;
}

}  // namespace pm

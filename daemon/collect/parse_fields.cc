#include "daemon/collect/parse_fields.hh"

#include <algorithm>

#include "daemon/collect/scan.hh"

namespace pm {
namespace {

bool IsZone(std::string_view s) {
  return s == "dma" || s == "dma32" || s == "normal" || s == "movable" || s == "high" ||
         s == "device";
}

// `name`'s value (the next word of `rest`) into its field, if one takes it.
void Take(const FieldMatcher& fields, std::string_view proto, std::string_view name,
          std::string_view value, FieldValues& out, std::string_view source, int line) {
  size_t f = fields.Find(proto, name);
  if (f == FieldMatcher::npos) return;
  uint64_t v = 0;
  if (scan::NextU64(value, v) != scan::Num::kOk || !value.empty()) {
    std::string what = proto.empty() ? std::string(name)
                                     : std::string(proto) + " " + std::string(name);
    scan::ThrowAt(source, line, "expected an unsigned number for " + what);
  }
  out.values[f] += v;
  out.present[f] = 1;
}

void NameValue(std::string_view text, const FieldMatcher& fields, FieldValues& out,
               std::string_view source) {
  scan::Lines lines(text);
  for (std::string_view line; lines.Next(line);) {
    std::string_view name = scan::NextWord(line);
    Take(fields, {}, name, scan::NextWord(line), out, source, lines.number());
  }
}

void HeaderPairs(std::string_view text, const FieldMatcher& fields, FieldValues& out,
                 std::string_view source) {
  scan::Lines lines(text);
  for (std::string_view header; lines.Next(header);) {
    size_t colon = header.find(':');
    if (colon == std::string_view::npos) continue;
    std::string_view proto = header.substr(0, colon), values;
    if (!lines.Next(values) || !values.starts_with(header.substr(0, colon + 1)))
      scan::ThrowAt(source, lines.number(),
                    "expected the values line of " + std::string(proto) + " after its names");
    std::string_view names = header.substr(colon + 1);
    values.remove_prefix(colon + 1);
    for (std::string_view name; !(name = scan::NextWord(names)).empty();) {
      std::string_view value = scan::NextWord(values);
      if (value.empty())
        scan::ThrowAt(source, lines.number(), std::string(proto) + ": fewer values than names");
      Take(fields, proto, name, value, out, source, lines.number());
    }
  }
}

void InlinePairs(std::string_view text, const FieldMatcher& fields, FieldValues& out,
                 std::string_view source) {
  scan::Lines lines(text);
  for (std::string_view line; lines.Next(line);) {
    size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    std::string_view proto = line.substr(0, colon), rest = line.substr(colon + 1);
    for (std::string_view name; !(name = scan::NextWord(rest)).empty();)
      Take(fields, proto, name, scan::NextWord(rest), out, source, lines.number());
  }
}

}  // namespace

FieldMatcher::FieldMatcher(std::span<const std::string_view> fields,
                           std::span<const std::string_view> zoned)
    : fields_(fields), zoned_(zoned), sorted_(fields.size()) {
  for (size_t i = 0; i < sorted_.size(); ++i) sorted_[i] = i;
  std::sort(sorted_.begin(), sorted_.end(),
            [&](size_t a, size_t b) { return fields_[a] < fields_[b]; });
}

size_t FieldMatcher::Exact(std::string_view name) const {
  auto it = std::lower_bound(sorted_.begin(), sorted_.end(), name,
                             [&](size_t f, std::string_view n) { return fields_[f] < n; });
  return it != sorted_.end() && fields_[*it] == name ? *it : npos;
}

// "field_ZONE" of a zoned field.
size_t FieldMatcher::Zoned(std::string_view name) const {
  for (std::string_view field : zoned_)
    if (name.size() > field.size() + 1 && name.starts_with(field) && name[field.size()] == '_' &&
        IsZone(name.substr(field.size() + 1)))
      return Exact(field);
  return npos;
}

size_t FieldMatcher::Find(std::string_view proto, std::string_view name) const {
  if (proto.empty()) {
    size_t f = Exact(name);
    return f != npos || zoned_.empty() ? f : Zoned(name);
  }
  scratch_.assign(proto).append(1, '_').append(name);
  return Exact(scratch_);
}

void FieldValues::Reset(size_t fields) {
  values.assign(fields, 0);
  present.assign(fields, 0);
}

void ParseFields(std::string_view text, FieldsLayout layout, const FieldMatcher& fields,
                 FieldValues& out, std::string_view source) {
  switch (layout) {
    case FieldsLayout::kNameValue: return NameValue(text, fields, out, source);
    case FieldsLayout::kHeaderPairs: return HeaderPairs(text, fields, out, source);
    case FieldsLayout::kInlinePairs: return InlinePairs(text, fields, out, source);
  }
}

}  // namespace pm

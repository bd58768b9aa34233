// `--meta key=value` (seeds/embedding.md §4): split on the first raw '=',
// then percent-decode both halves as Go's url.PathUnescape does, so a
// literal '=' (%3D), space (%20) or '%' (%25) survives in either half.
// Every malformed argument is a UsageError (exit 1, nothing recorded) whose
// one-line message quotes the argument and names the fix.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "proto/pgr_format.hh"

namespace pm {

// "key=value" -> {key, value}, both decoded. UsageError when there is no
// raw '=', an escape is invalid in either half, the key decodes empty, or
// either half decodes to bytes that are not UTF-8 (metadata is text; the
// message names the key).
std::pair<std::string, std::string> ParseMetaArg(std::string_view arg);

// Every --meta argument in command-line order; also rejects a key given
// twice (the header's meta is an object).
MetaList ParseMetaArgs(const std::vector<std::string>& args);

}  // namespace pm

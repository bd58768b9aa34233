// The two lines the embedding library reads from the recorder: the ready
// line and a command's reply (DESIGN §4, §5). Only the fields the library
// reports are extracted; the recorder writes them, so a missing field is a
// protocol error, not something to recover from.
#pragma once

#include <string>

namespace pm::embed {

// {"event":"ready",...,"output":"...","start_time":"..."}: true when the
// line is a ready event carrying both strings.
bool ParseReadyLine(const std::string& line, std::string* output, std::string* start_time);

// The "error" code of a refused command's reply ("unknown_command", ...),
// or the reply itself when it has none.
std::string ReplyError(const std::string& reply);

// The decoded value of the JSON string member `key` in a flat object, or
// false when there is none (exposed for tests).
bool StringMember(const std::string& json, const std::string& key, std::string* value);

}  // namespace pm::embed

#include "embed/ready_line.hh"

#include <cstdlib>

namespace pm::embed {
namespace {

// Appends code point `cp` as UTF-8.
void AppendUtf8(std::string& out, unsigned cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// Decodes the string body starting at `i` (after the opening quote).
bool DecodeString(const std::string& s, size_t i, std::string* out) {
  out->clear();
  for (; i < s.size(); ++i) {
    char c = s[i];
    if (c == '"') return true;
    if (c != '\\') {
      *out += c;
      continue;
    }
    if (++i >= s.size()) return false;
    switch (s[i]) {
      case 'n': *out += '\n'; break;
      case 't': *out += '\t'; break;
      case 'r': *out += '\r'; break;
      case 'b': *out += '\b'; break;
      case 'f': *out += '\f'; break;
      case 'u': {
        if (i + 4 >= s.size()) return false;
        AppendUtf8(*out, static_cast<unsigned>(std::strtoul(s.substr(i + 1, 4).c_str(), nullptr, 16)));
        i += 4;
        break;
      }
      default: *out += s[i];  // \" \\ \/
    }
  }
  return false;
}

}  // namespace

bool StringMember(const std::string& json, const std::string& key, std::string* value) {
  std::string needle = "\"" + key + "\":\"";
  size_t at = json.find(needle);
  return at != std::string::npos && DecodeString(json, at + needle.size(), value);
}

bool ParseReadyLine(const std::string& line, std::string* output, std::string* start_time) {
  std::string event;
  return StringMember(line, "event", &event) && event == "ready" &&
         StringMember(line, "output", output) && StringMember(line, "start_time", start_time);
}

bool UintMember(const std::string& json, const std::string& key, uint64_t* value) {
  std::string needle = "\"" + key + "\":";
  size_t at = json.find(needle);
  if (at == std::string::npos) return false;
  const char* digits = json.c_str() + at + needle.size();
  if (*digits < '0' || *digits > '9') return false;
  *value = std::strtoull(digits, nullptr, 10);
  return true;
}

bool ParseReply(const std::string& line, Reply* reply) {
  *reply = {};
  if (!UintMember(line, "seq", &reply->seq)) return false;
  reply->ok = line.find("\"ok\":true") != std::string::npos;
  StringMember(line, "state", &reply->state);
  if (!reply->ok && !StringMember(line, "error", &reply->error))
    reply->error = line.substr(0, line.find('\n'));
  UintMember(line, "samples", &reply->samples);
  UintMember(line, "missed_ticks", &reply->missed_ticks);
  UintMember(line, "bytes_out", &reply->bytes_out);
  size_t cost = line.find("\"cost\":{");
  if (cost != std::string::npos) {
    const std::string object = line.substr(cost, line.find('}', cost) - cost);
    reply->has_cost = true;
    for (size_t i = 0; i < 8; ++i)
      reply->has_cost &= UintMember(object, kReplyCostKeys[i], &reply->cost[i]);
  }
  return true;
}

}  // namespace pm::embed

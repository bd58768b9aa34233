// Several recordings as one stream (playback/reading/joined_input.hh), on plain
// files written here: a rotation's shared sample given once, a gap paused
// over, a reboot's monotonic clock moved on, a mismatch refused.
#include <doctest/doctest.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "common/error.hh"
#include "playback/reading/joined_input.hh"

namespace pm {
namespace {

std::string Header(int64_t start_ns, const char* devices = "[\"vda\"]") {
  return "{\"format\":\"perfmonger-pgr\",\"version\":1,\"host\":\"h\",\"kernel\":\"k\","
         "\"start_time\":\"x\",\"start_ns\":" + std::to_string(start_ns) +
         ",\"interval_ns\":10,\"num_core\":1,\"pid\":1,\"collectors\":{\"disk\":{\"devices\":" +
         devices + "}},\"meta\":{}}\n";
}

std::string Sample(int64_t t, int64_t mono) {
  return "{\"t\":" + std::to_string(t) + ",\"mono\":" + std::to_string(mono) +
         ",\"disk\":[[1]]}\n";
}

std::string End(int64_t t, int64_t mono, const char* reason) {
  return "{\"event\":\"end\",\"t\":" + std::to_string(t) + ",\"mono\":" +
         std::to_string(mono) + ",\"reason\":\"" + reason + "\"}\n";
}

struct Dir {
  Dir() {
    path = std::filesystem::temp_directory_path() / "pm-joined-XXXXXX";
    REQUIRE(mkdtemp(path.data()));
  }
  ~Dir() { std::filesystem::remove_all(path); }
  std::string Write(const std::string& name, const std::string& text) const {
    std::ofstream(path + "/" + name) << text;
    return path + "/" + name;
  }
  std::string path;
};

std::string ReadAll(std::vector<std::string> paths) {
  JoinedInput in(std::move(paths));
  std::string out;
  char buf[7];  // small: lines cross reads
  while (size_t n = in.Read(buf)) out.append(buf, n);
  return out;
}

TEST_CASE("a rotation's sample is given once; the trailers but the last are dropped") {
  Dir d;
  std::string a = d.Write("a.pgr", Header(100) + Sample(100, 10) + Sample(110, 20) +
                                        End(110, 20, "rotate"));
  std::string b = d.Write("b.pgr", Header(110) + Sample(110, 20) + Sample(120, 30) +
                                        End(120, 30, "SIGINT"));
  CHECK(OrderRecordings({d.path}) == std::vector<std::string>{a, b});
  CHECK(ReadAll({a, b}) == Header(100) + Sample(100, 10) + Sample(110, 20) + Sample(120, 30) +
                               End(120, 30, "SIGINT"));
}

TEST_CASE("a gap is paused over; after a reboot the monotonic clock goes on") {
  Dir d;
  std::string a = d.Write("a.pgr", Header(100) + Sample(100, 1000) + Sample(110, 1010));
  std::string b = d.Write("b.pgr", Header(500) + Sample(500, 5) + Sample(510, 15));
  JoinedInput in({a, b});
  std::string out;
  char buf[64];
  while (size_t n = in.Read(buf)) out.append(buf, n);
  // The wall clock moved 390 between the files: so does the monotonic one.
  CHECK(out == Header(100) + Sample(100, 1000) + Sample(110, 1010) +
                   "{\"event\":\"pause\",\"t\":110,\"mono\":1010}\n"
                   "{\"event\":\"resume\",\"t\":500,\"mono\":1400}\n" +
                   Sample(500, 1400) + Sample(510, 1410));
  REQUIRE(in.gaps().size() == 1);
  CHECK(in.gaps()[0].find("no rate spans the gap") != std::string::npos);
}

TEST_CASE("files that record other devices are not joined; empty ones are passed over") {
  Dir d;
  std::string a = d.Write("a.pgr", Header(100) + Sample(100, 10));
  std::string b = d.Write("b.pgr", Header(200, "[\"vdb\"]") + Sample(200, 20));
  d.Write("c.pgr.zst", "");
  d.Write("notes.txt", "not a recording");
  CHECK(OrderRecordings({d.path}) == std::vector<std::string>{a, b});
  CHECK_THROWS_AS(ReadAll({a, b}), FormatError);
}

TEST_CASE("a source's inferred resolution does not keep files of one host apart") {
  Dir d;
  auto with = [](int64_t start_ns, const char* resolution) {
    std::string h = Header(start_ns, "[\"vda\"],\"sources\":[{\"resolution_ns\":");
    return h.insert(h.find("}},\"meta\""), std::string(resolution) + "}]");
  };
  std::string a = d.Write("a.pgr", with(100, "4000000") + Sample(100, 10));
  std::string b = d.Write("b.pgr", with(200, "10000000") + Sample(200, 20));
  const std::string joined = ReadAll({a, b});
  CHECK(joined.find("\"resolution_ns\":4000000}]") != std::string::npos);  // the first file's
  CHECK(joined.find(Sample(200, 20)) != std::string::npos);
}

}  // namespace
}  // namespace pm

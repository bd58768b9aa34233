#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "proto/control_protocol.hh"
#include "proto/control_reply.hh"

using namespace std::literals;
using pm::CommandDecoder;
using pm::ParsedLine;
using pm::Verb;

namespace {

// One decoded line as text, so doctest shows mismatches readably.
std::string Show(const ParsedLine& p) {
  return std::to_string(p.seq) + "|" + p.cmd + "|" +
         std::to_string(static_cast<int>(p.verb)) + "|" + p.arg + "|" +
         p.error;
}

std::vector<std::string> Run(const std::vector<std::string_view>& chunks,
                             bool finish) {
  CommandDecoder decoder;
  std::vector<ParsedLine> out;
  for (std::string_view chunk : chunks) decoder.Feed(chunk, out);
  if (finish) decoder.Finish(out);
  std::vector<std::string> shown;
  for (const ParsedLine& p : out) shown.push_back(Show(p));
  return shown;
}

// Decodes `in` in one Feed, one byte per Feed, and (for short inputs) cut
// in two at every offset; all must agree. Returns the one-Feed result.
std::vector<ParsedLine> Decode(std::string_view in, bool finish = true) {
  CommandDecoder decoder;
  std::vector<ParsedLine> whole;
  decoder.Feed(in, whole);
  if (finish) decoder.Finish(whole);
  std::vector<std::string> expected;
  for (const ParsedLine& p : whole) expected.push_back(Show(p));

  std::vector<std::string_view> bytes;
  for (size_t i = 0; i < in.size(); ++i) bytes.push_back(in.substr(i, 1));
  CHECK(Run(bytes, finish) == expected);
  if (in.size() <= 2048) {
    for (size_t cut = 0; cut <= in.size(); ++cut)
      CHECK(Run({in.substr(0, cut), in.substr(cut)}, finish) == expected);
  }
  for (size_t i = 0; i < whole.size(); ++i) CHECK(whole[i].seq == i + 1);
  return whole;
}

struct Want {
  std::string cmd;
  Verb verb = Verb::kNone;
  std::string arg;
  std::string error;
};

void CheckLines(std::string_view in, const std::vector<Want>& want) {
  CAPTURE(in);
  std::vector<ParsedLine> got = Decode(in);
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    CAPTURE(i);
    CHECK(got[i].cmd == want[i].cmd);
    CHECK(got[i].verb == want[i].verb);
    CHECK(got[i].arg == want[i].arg);
    CHECK(got[i].error == want[i].error);
  }
}

Want Ok(std::string cmd, Verb verb, std::string arg = "") {
  return {std::move(cmd), verb, std::move(arg), ""};
}
Want Err(std::string cmd, std::string error) {
  return {std::move(cmd), Verb::kNone, "", std::move(error)};
}

}  // namespace

TEST_SUITE("control_protocol") {

TEST_CASE("every verb and alias; cmd echoes what was written") {
  struct Row {
    std::string_view in;
    Want want;
  };
  const Row rows[] = {
      {"pause\n", Ok("pause", Verb::kPause)},
      {"disable\n", Ok("disable", Verb::kPause)},
      {"resume\n", Ok("resume", Verb::kResume)},
      {"enable\n", Ok("enable", Verb::kResume)},
      {"mark x\n", Ok("mark", Verb::kMark, "x")},
      {"sample\n", Ok("sample", Verb::kSample)},
      {"ping\n", Ok("ping", Verb::kPing)},
      {"status\n", Ok("status", Verb::kStatus)},
      {"stop\n", Ok("stop", Verb::kStop)},
  };
  for (const Row& row : rows) CheckLines(row.in, {row.want});
}

TEST_CASE("mark labels") {
  const std::string l128(128, 'a'), l129(129, 'a');
  CheckLines("mark warm up\n", {Ok("mark", Verb::kMark, "warm up")});
  CheckLines("mark  x\n", {Ok("mark", Verb::kMark, " x")});
  CheckLines("mark x \n", {Ok("mark", Verb::kMark, "x ")});
  CheckLines("mark  \n", {Ok("mark", Verb::kMark, " ")});
  CheckLines("mark ~!\"\\<>&{}\n", {Ok("mark", Verb::kMark, "~!\"\\<>&{}")});
  CheckLines("mark " + l128 + "\n", {Ok("mark", Verb::kMark, l128)});
  CheckLines("mark " + l128 + "\r\n", {Ok("mark", Verb::kMark, l128)});
  CheckLines("mark " + l129 + "\n", {Err("mark", "bad_argument")});
  CheckLines("mark\n", {Err("mark", "bad_argument")});
  CheckLines("mark \n", {Err("mark", "bad_argument")});
  CheckLines("mark a\tb\n", {Err("mark", "bad_byte")});
  CheckLines("mark a\x7f\n", {Err("mark", "bad_byte")});
  CheckLines("mark \x01\n", {Err("mark", "bad_byte")});
  CheckLines("mark \xc3\xa9t\xc3\xa9\n", {Err("mark", "bad_byte")});
}

TEST_CASE("pid names a process by its decimal id") {
  CheckLines("pid 4242\n", {Ok("pid", Verb::kPid, "4242")});
  CheckLines("pid 1\r\n", {Ok("pid", Verb::kPid, "1")});
  CheckLines("pid 4294967295\n", {Ok("pid", Verb::kPid, "4294967295")});
  for (const char* bad : {"pid\n", "pid \n", "pid 0\n", "pid 042\n", "pid -1\n", "pid 12a\n",
                          "pid  42\n", "pid 42 \n", "pid 12345678901\n"})
    CheckLines(bad, {Err("pid", "bad_argument")});
}

TEST_CASE("every error code") {
  CheckLines("paus\n", {Err("paus", "unknown_command")});
  CheckLines("PAUSE\n", {Err("PAUSE", "unknown_command")});
  CheckLines("Ping\n", {Err("Ping", "unknown_command")});
  CheckLines(" pause\n", {Err("", "unknown_command")});
  CheckLines("pausex 1\n", {Err("pausex", "unknown_command")});
  CheckLines("pause \n", {Err("pause", "bad_argument")});
  CheckLines("pause now\n", {Err("pause", "bad_argument")});
  CheckLines("ping  \n", {Err("ping", "bad_argument")});
  CheckLines("stop 1\n", {Err("stop", "bad_argument")});
  CheckLines("status x\n", {Err("status", "bad_argument")});
  CheckLines("pa\0se\n"s, {Err("pase", "bad_byte")});
  CheckLines("\0\n"s, {Err("", "bad_byte")});
  CheckLines("ping\0\n"s, {Err("ping", "bad_byte")});
  CheckLines("ping\x80\n", {Err("ping", "bad_byte")});
  CheckLines("\xffping\n", {Err("ping", "bad_byte")});
  CheckLines("nope\x01 x\n", {Err("nope", "bad_byte")});  // before unknown
  CheckLines(std::string(257, 'x') + "\n",
             {Err(std::string(32, 'x'), "line_too_long")});
}

TEST_CASE("CR: one final CR is dropped, any other is a bad byte") {
  CheckLines("ping\r\n", {Ok("ping", Verb::kPing)});
  CheckLines("mark a b\r\n", {Ok("mark", Verb::kMark, "a b")});
  CheckLines("\r\n", {});
  CheckLines("\r\n\r\nping\r\n", {Ok("ping", Verb::kPing)});
  CheckLines("pi\rng\n", {Err("ping", "bad_byte")});
  CheckLines("ping\r\r\n", {Err("ping", "bad_byte")});
  CheckLines("\r\r\n", {Err("", "bad_byte")});
  CheckLines("\rping\n", {Err("ping", "bad_byte")});
  CheckLines("ping\rstop\n", {Err("pingstop", "bad_byte")});
  CheckLines("pause \r\n", {Err("pause", "bad_argument")});
}

TEST_CASE("empty lines are ignored and take no seq") {
  CheckLines("", {});
  CheckLines("\n\n\n", {});
  CheckLines("\nping\n\n\r\nstop\n\n",
             {Ok("ping", Verb::kPing), Ok("stop", Verb::kStop)});
}

TEST_CASE("line length limit: 256 ok, 257 too long, then resync") {
  const std::string l256 = "mark " + std::string(123, 'a') + " " +
                           std::string(127, 'b');  // 5 + 123 + 1 + 127
  REQUIRE(l256.size() == 256);
  CheckLines(l256 + "\n", {Err("mark", "bad_argument")});  // label: 251
  const std::string ok256 = "mark " + std::string(128, 'c');
  CheckLines(ok256 + std::string(123, ' ') + "\n",
             {Err("mark", "bad_argument")});
  const std::string unknown256(256, 'z');
  CheckLines(unknown256 + "\n", {Err(std::string(32, 'z'), "unknown_command")});
  CheckLines(unknown256 + "\r\n",
             {Err(std::string(32, 'z'), "unknown_command")});
  CheckLines(unknown256 + "x\nping\n",
             {Err(std::string(32, 'z'), "line_too_long"), Ok("ping", Verb::kPing)});
  // 256 bytes then a CR that turns out not to be the final one.
  CheckLines(unknown256 + "\rx\nping\n",
             {Err(std::string(32, 'z'), "line_too_long"), Ok("ping", Verb::kPing)});
  CheckLines(unknown256 + "\r\r\nping\n",
             {Err(std::string(32, 'z'), "line_too_long"), Ok("ping", Verb::kPing)});
  CheckLines("mark " + std::string(252, 'a') + "\nstop\n",
             {Err("mark", "line_too_long"), Ok("stop", Verb::kStop)});
  // Bad bytes before the limit: the length still wins.
  CheckLines("\x01" "abc" + std::string(300, '\0') + "\nping\n",
             {Err("abc", "line_too_long"), Ok("ping", Verb::kPing)});
}

TEST_CASE("line_too_long is reported once, as soon as the limit is passed") {
  CommandDecoder decoder;
  std::vector<ParsedLine> out;
  decoder.Feed(std::string(256, 'p'), out);
  CHECK(out.empty());
  decoder.Feed("p", out);
  REQUIRE(out.size() == 1);
  CHECK(out[0].error == "line_too_long");
  CHECK(out[0].seq == 1);
  for (int i = 0; i < 10000; ++i) decoder.Feed("pause\r", out);
  CHECK(out.size() == 1);
  decoder.Feed("\nping\n", out);
  REQUIRE(out.size() == 2);
  CHECK(out[1].seq == 2);
  CHECK(out[1].verb == Verb::kPing);
  decoder.Finish(out);
  CHECK(out.size() == 2);
}

TEST_CASE("an overlong line spread over many Feed calls") {
  std::string in = "stop" + std::string(100000, ' ') + "\nresume\n";
  CheckLines(in, {Err("stop", "line_too_long"), Ok("resume", Verb::kResume)});
}

TEST_CASE("a 100-command burst in one Feed: replies in order") {
  const char* const cmds[] = {"pause", "resume", "mark m", "sample", "ping",
                              "status", "disable", "enable", "stop", "bad"};
  std::string in;
  for (int i = 0; i < 100; ++i) in += std::string(cmds[i % 10]) + "\n";
  std::vector<ParsedLine> got = Decode(in);
  REQUIRE(got.size() == 100);
  for (size_t i = 0; i < 100; ++i) {
    CAPTURE(i);
    CHECK(got[i].seq == i + 1);
    std::string_view want = cmds[i % 10];
    CHECK(got[i].cmd == want.substr(0, want.find(' ')));
    CHECK(got[i].error == (i % 10 == 9 ? "unknown_command" : ""));
  }
}

TEST_CASE("cmd echo: first 32 bytes of the verb, bad bytes dropped") {
  CheckLines(std::string(40, 'q') + " x\n",
             {Err(std::string(32, 'q'), "unknown_command")});
  CheckLines("\x01\x02pause\n", {Err("pause", "bad_byte")});
  CheckLines("a\"b\\c<d\n", {Err("a\"b\\c<d", "unknown_command")});
  std::string bad32(32, '\x7f');
  CheckLines(bad32 + "ping\n", {Err("", "bad_byte")});
}

TEST_CASE("Finish decodes a pending partial line") {
  CheckLines("ping", {Ok("ping", Verb::kPing)});
  CheckLines("ping\r", {Ok("ping", Verb::kPing)});
  CheckLines("mark end", {Ok("mark", Verb::kMark, "end")});
  CheckLines("pause\nsta", {Ok("pause", Verb::kPause), Err("sta", "unknown_command")});
  CheckLines("\r", {});
  CheckLines(std::string(300, 'x'), {Err(std::string(32, 'x'), "line_too_long")});
  // Without Finish the partial line stays pending.
  CHECK(Decode("pause\nsta", false).size() == 1);
  CHECK(Decode("ping\r", false).empty());
}

TEST_CASE("Finish resets: the decoder goes on after it") {
  CommandDecoder decoder;
  std::vector<ParsedLine> out;
  decoder.Feed("pi", out);
  decoder.Finish(out);
  decoder.Finish(out);
  decoder.Feed("ng\n", out);
  REQUIRE(out.size() == 2);
  CHECK(out[0].error == "unknown_command");
  CHECK(out[1].cmd == "ng");
  CHECK(out[1].seq == 2);
}

}  // TEST_SUITE

TEST_SUITE("control_reply") {

TEST_CASE("ok replies: exact text, fields in order, only those set") {
  using pm::EncodeOkReply;
  using pm::ReplyFields;
  CHECK(EncodeOkReply(1, "ping", {}) == "{\"seq\":1,\"cmd\":\"ping\",\"ok\":true}\n");
  ReplyFields pause;
  pause.state = "paused";
  pause.samples = 123;
  pause.changed = false;
  pause.t_ns = 1700000000123456789;
  pause.mono_ns = 42;
  CHECK(EncodeOkReply(7, "pause", pause) ==
        "{\"seq\":7,\"cmd\":\"pause\",\"ok\":true,\"state\":\"paused\","
        "\"samples\":123,\"changed\":false,\"t\":1700000000123456789,"
        "\"mono\":42}\n");
  ReplyFields all = pause;
  all.changed = true;
  all.mono_ns = -5;
  all.missed_ticks = 0;
  all.bytes_out = 4096;
  CHECK(EncodeOkReply(9, "disable", all) ==
        "{\"seq\":9,\"cmd\":\"disable\",\"ok\":true,\"state\":\"paused\","
        "\"samples\":123,\"changed\":true,\"t\":1700000000123456789,"
        "\"mono\":-5,\"missed_ticks\":0,\"bytes_out\":4096}\n");
  ReplyFields status;
  status.state = "recording";
  status.bytes_out = 1;
  CHECK(EncodeOkReply(2, "status", status) ==
        "{\"seq\":2,\"cmd\":\"status\",\"ok\":true,\"state\":\"recording\","
        "\"bytes_out\":1}\n");
}

TEST_CASE("error replies: exact text, cmd escaped") {
  using pm::EncodeErrorReply;
  CHECK(EncodeErrorReply(8, "paus", "unknown_command") ==
        "{\"seq\":8,\"cmd\":\"paus\",\"ok\":false,\"error\":\"unknown_command\"}\n");
  CHECK(EncodeErrorReply(3, "", "bad_byte") ==
        "{\"seq\":3,\"cmd\":\"\",\"ok\":false,\"error\":\"bad_byte\"}\n");
  CHECK(EncodeErrorReply(4, "a\"<", "line_too_long") ==
        "{\"seq\":4,\"cmd\":\"a\\\"\\u003c\",\"ok\":false,"
        "\"error\":\"line_too_long\"}\n");
}

TEST_CASE("replies stay within kMaxReply whatever the input") {
  constexpr uint64_t kBigU = std::numeric_limits<uint64_t>::max();
  constexpr int64_t kMinI = std::numeric_limits<int64_t>::min();
  const std::string worst(5000, '<');  // escapes to 6 bytes each
  pm::ReplyFields f;
  f.state = worst;
  f.samples = f.missed_ticks = f.bytes_out = kBigU;
  f.changed = false;
  f.t_ns = f.mono_ns = kMinI;
  std::string ok = pm::EncodeOkReply(kBigU, worst, f);
  std::string err = pm::EncodeErrorReply(kBigU, worst, worst);
  CHECK(ok.size() <= pm::kMaxReply);
  CHECK(err.size() <= pm::kMaxReply);
  CHECK(ok.find('\n') == ok.size() - 1);
  CHECK(err.find('\n') == err.size() - 1);
}

TEST_CASE("decoder output feeds the encoder") {
  std::vector<ParsedLine> got = Decode("paus\nmark x\n");
  REQUIRE(got.size() == 2);
  CHECK(pm::EncodeErrorReply(got[0].seq, got[0].cmd, got[0].error) ==
        "{\"seq\":1,\"cmd\":\"paus\",\"ok\":false,\"error\":\"unknown_command\"}\n");
  CHECK(pm::EncodeOkReply(got[1].seq, got[1].cmd, {}) ==
        "{\"seq\":2,\"cmd\":\"mark\",\"ok\":true}\n");
}

}  // TEST_SUITE

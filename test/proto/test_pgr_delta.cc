// The writer's half of format v2: what DeltaEncoder writes, byte for byte.
// Reading it back (round trips, damage) is test/playback/test_delta_decoder.cc.
#include <doctest/doctest.h>

#include <string>

#include "proto/pgr_delta.hh"

TEST_CASE("a difference line is the shape with signed differences") {
  pm::DeltaEncoder enc;
  std::string a = "{\"t\":100,\"mono\":50,\"cpu\":[[10,20],null]}\n";
  std::string b = "{\"t\":200,\"mono\":150,\"cpu\":[[13,5],null]}\n";
  CHECK(enc.Encode(a, 50) == a);  // the first sample is a keyframe
  CHECK(enc.Encode(b, 150) == "{\"d\":1,\"t\":100,\"mono\":100,\"cpu\":[[3,-15],null]}\n");
  // A row that appears changes the shape: a keyframe.
  std::string c = "{\"t\":300,\"mono\":250,\"cpu\":[[14,6],[1,1]]}\n";
  CHECK(enc.Encode(c, 250) == c);
}

TEST_CASE("keyframes at least every 10 s whatever the interval") {
  pm::DeltaEncoder enc;
  std::string line = "{\"t\":1,\"mono\":1,\"mem\":[5]}\n";
  CHECK(enc.Encode(line, 0) == line);
  CHECK(enc.Encode(line, 9'999'999'999).starts_with(pm::kDeltaLinePrefix));
  CHECK(enc.Encode(line, 10'000'000'000) == line);
}

TEST_CASE("lines the transform may not touch are written as keyframes") {
  pm::DeltaEncoder enc;
  std::string fraction = "{\"t\":1,\"mono\":1,\"x\":[1.5]}\n";
  CHECK(enc.Encode(fraction, 0) == fraction);
  CHECK(enc.Encode(fraction, 1) == fraction);
  std::string negative = "{\"t\":1,\"mono\":1,\"x\":[-3]}\n";
  CHECK(enc.Encode(negative, 2) == negative);
  CHECK(enc.Encode(negative, 3) == negative);
  std::string leading_zero = "{\"t\":1,\"mono\":1,\"x\":[07]}\n";  // would come back as 7
  CHECK(enc.Encode(leading_zero, 3) == leading_zero);
  CHECK(enc.Encode(leading_zero, 3) == leading_zero);
  // Digits inside strings are text, not counters.
  std::string keyed = "{\"t\":1,\"mono\":1,\"x\\\"9\":[7]}\n";
  CHECK(enc.Encode(keyed, 4) == keyed);
  CHECK(enc.Encode(keyed, 5) == "{\"d\":1,\"t\":0,\"mono\":0,\"x\\\"9\":[0]}\n");
}

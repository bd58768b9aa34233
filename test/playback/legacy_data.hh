// PerfMonger's golden files, test/data/legacy ($PM_LEGACY_DATA,
// set by meson for test_playback).
#pragma once

#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace pm::test {

inline std::string ReadLegacyFile(const std::string& name) {
  const char* dir = std::getenv("PM_LEGACY_DATA");
  REQUIRE_MESSAGE(dir != nullptr, "run through meson test (PM_LEGACY_DATA)");
  std::ifstream file(std::string(dir) + "/" + name, std::ios::binary);
  REQUIRE_MESSAGE(file.good(), "cannot open " << name);
  std::ostringstream bytes;
  bytes << file.rdbuf();
  return bytes.str();
}

}  // namespace pm::test

// The headers most test files include, parsed once per test executable
// (meson's cpp_pch) instead of once per file: doctest's alone is a
// quarter of a small test file's compile time.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tools/plot/plot_scratch.hh"

#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "common/error.hh"

namespace pm {

ScratchDir::ScratchDir() {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/perfmonger-plot.XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr)
    throw SystemError("cannot create a scratch directory " + pattern);
  path_ = pattern;
}

ScratchDir::~ScratchDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

}  // namespace pm

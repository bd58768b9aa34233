// gnuplot's working directory, private (mkdtemp: 0700, under $TMPDIR or
// /tmp): the data files, scripts and charts of `plot` and of `diff
// --report`, removed with everything in it when the object goes.
#pragma once

#include <string>

namespace pm {

class ScratchDir {
 public:
  ScratchDir();   // throws SystemError when it cannot be made
  ~ScratchDir();  // best effort: nothing to report a failure to
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::string& path() const { return path_; }
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

}  // namespace pm

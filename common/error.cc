#include "common/error.hh"

#include <cerrno>

namespace pm {

std::system_error SystemError(const std::string& what, int err) {
  return std::system_error(err, std::generic_category(), what);
}

std::system_error SystemError(const std::string& what) {
  return SystemError(what, errno);
}

}  // namespace pm

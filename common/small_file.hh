// A small file read whole (/proc files, /etc/passwd).
#pragma once

#include <string>

namespace pm {

// Reads a small file to its end (pread from 0); "" if it cannot be opened.
std::string ReadSmallFile(const std::string& path);

}  // namespace pm

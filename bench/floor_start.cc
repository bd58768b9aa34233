// The start-up floor: the least a C++ program built and linked like
// perfmonger (same project link arguments: static libstdc++/libgcc) does
// between exec and its first write. It builds a std::string (heap, so
// libstdc++ and malloc are really used) and writes one byte to fd 3.
#include <unistd.h>

#include <string>

int main(int argc, char** argv) {
  std::string word = argc > 0 ? argv[0] : "floor";
  word += " is ready, a string longer than the small-string buffer";
  char byte = word.size() > 15 ? '\n' : '?';
  return write(3, &byte, 1) == 1 ? 0 : 1;
}

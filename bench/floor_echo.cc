// The command round-trip floor: the least a process does to answer a line
// on a pipe. Reads fd 5 and answers each read with argv[1] bytes ending in
// "\n" on fd 6 (the recorder's --cmd-fd and --ack-fd in the bench); exits 0
// at EOF.
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <string>

int main(int argc, char** argv) {
  size_t bytes = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 1;
  std::string reply(bytes > 0 ? bytes - 1 : 0, 'x');
  reply += '\n';
  char buf[512];
  for (;;) {
    ssize_t n = read(5, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return n == 0 ? 0 : 1;
    if (write(6, reply.data(), reply.size()) != static_cast<ssize_t>(reply.size())) return 1;
  }
}

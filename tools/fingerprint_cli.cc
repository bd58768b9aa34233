#include "tools/fingerprint_cli.hh"

#include <unistd.h>

#include <cstdio>
#include <exception>
#include <string>
#include <string_view>

#include "tools/fingerprint.hh"

namespace pm {
namespace {

constexpr char kUsage[] = R"(Usage: perfmonger fingerprint [OUTPUT]
       (aliases: fp, bukko)

Gathers this machine's configuration into OUTPUT (default
./fingerprint.<hostname>.tar.gz; .tar.gz is appended unless OUTPUT ends in
.tar.gz or .tgz): copies of /proc files, /proc/sys/fs, /sys/block device
attributes, and the output of lscpu, lsblk -t, df -h, mount, lspci -vvv,
lsmod, sysctl -a, ip addr, ip route and numactl --hardware where they exist.
Each step is reported on stderr as done, skipped or failed.

Options:
  -h, --help   show this help
)";

std::string HostName() {
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0 || host[0] == '\0') return "localhost";
  return host;
}

int UsageError(const std::string& message) {
  std::fprintf(stderr, "perfmonger fingerprint: error: %s (see --help)\n",
               message.c_str());
  return 1;
}

}  // namespace

int FingerprintMain(int argc, char** argv) {
  std::string output;
  bool named = false;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "-h" || arg == "--help") {
      std::fputs(kUsage, stdout);
      return 0;
    }
    if (arg == "--" && i + 1 == argc - 1 && !named) {
      output = argv[++i];
      named = true;
    } else if (arg.starts_with("-") && arg != "-") {
      return UsageError("unknown option '" + std::string(arg) + "'");
    } else if (named) {
      return UsageError("one OUTPUT at a time: unexpected '" + std::string(arg) + "'");
    } else {
      output = arg;
      named = true;
    }
  }
  if (named && output.empty()) return UsageError("OUTPUT is empty: name an archive");

  std::string path = FingerprintArchivePath(output, HostName());
  try {
    FingerprintCounts n = WriteFingerprint(path, "/", stderr);
    std::fprintf(stderr, "saved to %s (%d done, %d skipped, %d failed)\n",
                 path.c_str(), n.done, n.skipped, n.failed);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "perfmonger fingerprint: error: %s\n", e.what());
    unlink(path.c_str());
    return 1;
  }
}

}  // namespace pm

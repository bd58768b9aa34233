#include "tools/fingerprint/fingerprint_cli.hh"

#include <unistd.h>

#include <cstdio>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.hh"

#include "tools/fingerprint/fingerprint.hh"

namespace pm {
namespace {

constexpr char kAbout[] =
    R"(Gathers this machine's configuration into OUTPUT (default
./fingerprint.<hostname>.tar.gz; .tar.gz is appended unless OUTPUT ends in
.tar.gz or .tgz): copies of /proc files, /proc/sys/fs, /sys/block device
attributes, and the output of lscpu, lsblk -t, df -h, mount, lspci -vvv,
lsmod, sysctl -a, ip addr, ip route and numactl --hardware where they exist.
Each step is reported on stderr as done, skipped or failed. Aliases: fp,
bukko.
)";

std::string HostName() {
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0 || host[0] == '\0') return "localhost";
  return host;
}

int PrintUsageError(const std::string& message) {
  std::fprintf(stderr, "perfmonger fingerprint: error: %s\n", message.c_str());
  return 1;
}

Command<FingerprintArgs> BuildFingerprintCommand() {
  return {{"fingerprint", "[OUTPUT]", kAbout, ""},
          {MakeOption<FingerprintArgs>({.name = "help", .short_name = 'h', .help = "show this help"},
                                       [](FingerprintArgs& a, const Given& g) { a.help = g.on; })}};
}

}  // namespace

const Command<FingerprintArgs>& FingerprintCommand() {
  static const Command<FingerprintArgs> command = BuildFingerprintCommand();
  return command;
}

FingerprintArgs ParseFingerprintArgs(int argc, char** argv) {
  FingerprintArgs a;
  std::vector<std::string> operands = FingerprintCommand().Parse(argc, argv, a);
  if (a.help) return a;
  if (operands.size() > 1)
    throw UsageError("one OUTPUT at a time: unexpected '" + operands[1] +
                     "' (see perfmonger fingerprint --help)");
  if (!operands.empty()) {
    if (operands[0].empty()) throw UsageError("OUTPUT is empty: name an archive");
    a.output = operands[0];
  }
  return a;
}

int FingerprintMain(int argc, char** argv) {
  FingerprintArgs args;
  try {
    args = ParseFingerprintArgs(argc, argv);
  } catch (const UsageError& e) {
    return PrintUsageError(e.what());
  }
  if (args.help) {
    std::fputs(FingerprintCommand().Usage().c_str(), stdout);
    return 0;
  }
  std::string output = args.output;
  std::string path = FingerprintArchivePath(output, HostName());
  try {
    FingerprintCounts n = WriteFingerprint(path, "/", stderr);
    std::fprintf(stderr, "saved to %s (%d done, %d skipped, %d failed)\n",
                 path.c_str(), n.done, n.skipped, n.failed);
    return 0;
  } catch (const SetupError& e) {  // the archive refused: whatever is there stays
    std::fprintf(stderr, "perfmonger fingerprint: error: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "perfmonger fingerprint: error: %s\n", e.what());
    unlink(path.c_str());
    return 1;
  }
}

}  // namespace pm

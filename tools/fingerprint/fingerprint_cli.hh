// `perfmonger fingerprint [OUTPUT]` (aliases `fp`, `bukko`): the machine's
// configuration as a .tar.gz (see tools/fingerprint/fingerprint.hh).
#pragma once

#include <string>

#include "tools/option_table.hh"

namespace pm {

struct FingerprintArgs {
  bool help = false;
  std::string output;  // "": the default name
};

// The option table: -h; OUTPUT is the operand.
const Command<FingerprintArgs>& FingerprintCommand();

// Throws UsageError naming the fix (exit 1).
FingerprintArgs ParseFingerprintArgs(int argc, char** argv);

// Returns the exit status: 0 archive written (steps may have been skipped
// or failed), 1 usage error or the archive could not be written.
int FingerprintMain(int argc, char** argv);

}  // namespace pm

// `perfmonger fingerprint [OUTPUT]` (aliases `fp`, `bukko`): the machine's
// configuration as a .tar.gz (see tools/fingerprint.hh).
#pragma once

namespace pm {

// Returns the exit status: 0 archive written (steps may have been skipped
// or failed), 1 usage error or the archive could not be written.
int FingerprintMain(int argc, char** argv);

}  // namespace pm

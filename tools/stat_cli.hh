// `perfmonger stat [record options] [--json] -- CMD [ARGS...]`: records
// while CMD runs, then summarizes the recording.
#pragma once

namespace pm {

// CMD's exit status (128 + signal when a signal killed it); 2 when CMD
// succeeded but the recording failed; 127 when CMD could not be started;
// 1 for a usage or setup error (CMD not run).
int StatMain(int argc, char** argv);

}  // namespace pm

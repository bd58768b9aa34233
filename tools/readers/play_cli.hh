// `perfmonger play`: a recording -> one JSON line of rates per pair of
// consecutive samples within a segment (a pause or resume ends one).
#pragma once

namespace pm {

// Returns the exit status: 0 played (truncated input too), 1 usage or
// unreadable input, 2 corrupt recording.
int PlayMain(int argc, char** argv);

}  // namespace pm

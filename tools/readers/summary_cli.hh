// `perfmonger summary` (alias `summarize`): averages between the first and
// the last sample of a recording, as text or JSON.
#pragma once

namespace pm {

// Returns the exit status: 0 summarized (truncated input too), 1 usage or
// unreadable input, 2 corrupt recording.
int SummaryMain(int argc, char** argv);

}  // namespace pm

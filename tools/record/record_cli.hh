// `perfmonger record`: command line -> RecordConfig -> Recorder.
#pragma once

namespace pm {

// Returns the exit status: 0 recorded, 1 setup error, 2 collection error.
int RecordMain(int argc, char** argv);

}  // namespace pm

// `perfmonger live [record options] [-c|--color] [--pretty]`: prints `play`
// lines as the samples are taken.
#pragma once

namespace pm {

// 0 when stopped (SIGINT, SIGTERM, --timeout, stdout closed); 1 for a
// usage or setup error; 2 for a collection error or a failing stdout.
int LiveMain(int argc, char** argv);

}  // namespace pm

// The recorder's clocks live in common/ (the launcher, tools, tests and the
// benchmark share them).
#pragma once

#include "common/clock.hh"

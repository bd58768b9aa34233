// Opening a file to write where other users may write too. In a sticky
// world-writable directory (/tmp, /var/tmp) anyone can plant an entry at
// the path an output will have: a symlink to a file of ours, or a hard
// link to one, so that writing the output overwrites that file. The
// kernel refuses the symlink when fs.protected_symlinks is 1, and nothing
// refuses the hard link; this does both, whatever the sysctls say:
//
//   - a symlink there is followed only when it is the caller's or the
//     directory owner's (the kernel's rule);
//   - a regular file there with more than one link is refused;
//
// elsewhere links are followed as open(2) does. A refusal is a SetupError
// naming the path and why; nothing is created, truncated or written then.
#pragma once

#include <string>

#include "common/unique_fd.hh"

namespace pm {

// open(2) with O_CLOEXEC and the rules above. O_TRUNC in `flags` is done
// only once the file is known to be acceptable. Throws SystemError (errno
// as open(2) left it) for other failures.
UniqueFd OpenOutputFile(const std::string& path, int flags, unsigned mode);

}  // namespace pm

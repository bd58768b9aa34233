// Opening a file to write where other users may write too. In a sticky
// world-writable directory (/tmp, /var/tmp) anyone can plant an entry at
// the path an output will have: a symlink to a file of ours, or a hard
// link to one, so that writing the output overwrites that file; a file of
// their own, so that our output lands in a file they keep; a FIFO, so that
// they read it, or nobody does and opening it waits for ever. The kernel
// refuses some of these when fs.protected_symlinks, fs.protected_regular
// and fs.protected_fifos say so, and nothing refuses the hard link; this
// does all of them, whatever the sysctls say:
//
//   - a symlink there is followed only when it is the caller's or the
//     directory owner's (the kernel's rule);
//   - a file or FIFO there is opened only when it is the caller's or the
//     directory owner's (the same rule);
//   - a regular file there with more than one link is refused;
//
// elsewhere links are followed as open(2) does. A refusal is a SetupError
// naming the path and why; nothing is created, truncated or written then.
// Anywhere, a FIFO is opened without waiting for its reader: one that
// nobody reads is refused too.
#pragma once

#include <string>
#include <string_view>

#include "common/unique_fd.hh"

namespace pm {

// open(2) with O_CLOEXEC and the rules above. O_TRUNC in `flags` is done
// only once the file is known to be acceptable; the fd is blocking unless
// `flags` has O_NONBLOCK. Throws SetupError for a refusal or a FIFO
// without a reader, SystemError (errno as open(2) left it) otherwise.
UniqueFd OpenOutputFile(const std::string& path, int flags, unsigned mode);

// `bytes` as the whole of the file at `path`, opened as above (created
// with `mode`, or truncated). When a write or the close fails the file is
// removed again, so that no empty or cut-short file is left, and a
// SystemError "writing PATH" is thrown; a full file system (ENOSPC,
// EDQUOT) is named as such.
void WriteOutputFile(const std::string& path, std::string_view bytes, unsigned mode);

}  // namespace pm

#pragma once
// Files in a per-user cache folder that another user of a shared machine must not be able to
// plant, swap or redirect: the folder is private (0700) and ours, entries are read only when
// they are regular files we own that nobody else can write (never through a symbolic link), and
// writes go to a temporary file created exclusively under an unpredictable name.
#include <cstddef>
#include <string>
#include <vector>

#include "core/status.h"

namespace fusescope {

// Creates `directory` (and its parents) when missing, the last one 0700, then checks it: a
// folder, not a symbolic link, owned by this user, writable by nobody else. A folder of ours
// that others may read is made private; one others may write, or another user's, is refused.
Status preparePrivateFolder(const std::string& directory);

// The bytes of `path` when it is a regular file (not a link) owned by this user, writable by
// nobody else, and at most `maxBytes` long; else why not.
Result<std::vector<unsigned char>> readPrivateFile(const std::string& path, std::size_t maxBytes);

// Writes `bytes` to a new temporary file beside `path` (mkstemp: O_CREAT|O_EXCL, mode 0600) and
// renames it over `path`; on failure the temporary file is removed and `path` is untouched.
Status writePrivateFile(const std::string& path, const std::vector<unsigned char>& bytes);

}  // namespace fusescope

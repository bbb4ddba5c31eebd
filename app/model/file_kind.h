#pragma once
// What kind of file a path names, for the refusals of saves and loads: special files (devices,
// FIFOs, sockets) and kernel file systems (/proc, /sys) are no place for recordings.
#include <QString>

namespace fusescope::model {

// "a character device", "a FIFO", ... for an existing special file; empty for a regular file,
// a folder or a path that does not exist. Symbolic links are followed.
QString specialFileKind(const QString& path);

// "proc", "sysfs", ... where `path` lies on a kernel file system; empty elsewhere.
QString kernelFileSystemName(const QString& path);

}  // namespace fusescope::model

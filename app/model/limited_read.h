#pragma once
// Loading with limits: every file the programs read (recordings, sweeps) goes through here, so
// that a device such as /dev/zero or a FIFO is refused instead of read without end.
#include <QByteArray>
#include <QString>
#include <QtGlobal>

#include "core/status.h"

namespace fusescope::model {

// Recordings and sweep files larger than this are refused before reading: the largest real
// ones (sampled timelines of several variants) are a few MiB.
inline constexpr qint64 kMaxRecordingBytes = qint64{512} << 20;

// Why `path` cannot be read as a file, in words, or empty: it does not exist, is a folder, is
// a special file (device, FIFO, socket) or lies on a kernel file system (/proc, /sys). Checked
// without opening it, so a FIFO or /proc/kmsg cannot block.
QString readSourceProblem(const QString& path);

// The whole file, refused with the reason ("cannot open PATH: ...") when readSourceProblem says
// so or when it holds more than `maxBytes` (checked before reading and while reading).
Result<QByteArray> readFileLimited(const QString& path, qint64 maxBytes = kMaxRecordingBytes);

}  // namespace fusescope::model

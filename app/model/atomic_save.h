#pragma once
// Saving that never destroys work. Every file the programs write (recordings, sweeps, chart and
// stage exports, screenshots) goes through here: the bytes go to a temporary file beside the
// target, and replace it only when every write and the flush succeeded.
#include <QByteArray>
#include <QString>

#include "core/status.h"

namespace fusescope::model {

// Why `path` cannot take a save, in words ("it is a FIFO, not a regular file"), or empty when it
// can. Checked without opening the target, so a FIFO with no reader cannot block it: refuses an
// empty name, a folder, a special file (device, FIFO, socket), a missing folder, a kernel file
// system (/proc, /sys) and a folder where no new file can be created.
QString saveTargetProblem(const QString& path);

// Writes `bytes` to `path` atomically (QSaveFile). On any failure the previous file is untouched
// and the message says "cannot write PATH: reason".
Status saveBytesAtomically(const QByteArray& bytes, const QString& path);

}  // namespace fusescope::model

#include "model/limited_read.h"

#include <QFile>
#include <QFileInfo>

#include "model/file_kind.h"

namespace fusescope::model {
namespace {

Status openFailure(const QString& path, const QString& reason) {
    return Status(ErrorCode::IoError,
                  QStringLiteral("cannot open %1: %2").arg(path, reason).toStdString());
}

QString tooLarge(qint64 maxBytes) {
    constexpr qint64 kMiB = qint64{1} << 20;
    const QString limit = maxBytes % kMiB == 0 ? QStringLiteral("%1 MiB").arg(maxBytes / kMiB)
                                               : QStringLiteral("%1 bytes").arg(maxBytes);
    return QStringLiteral("it is larger than %1, the limit for a recording").arg(limit);
}

}  // namespace

QString readSourceProblem(const QString& path) {
    if (path.isEmpty()) return QStringLiteral("no file name was given");
    const QFileInfo info(path);
    if (!info.exists()) return QStringLiteral("no such file");
    if (info.isDir()) return QStringLiteral("it is a folder");
    if (const QString special = specialFileKind(path); !special.isEmpty())
        return QStringLiteral("it is %1, not a regular file").arg(special);
    // Files there report a size of 0 and some (/proc/kmsg) block a read until the kernel writes.
    if (const QString kernel = kernelFileSystemName(path); !kernel.isEmpty())
        return QStringLiteral("it lies on %1, a kernel file system that holds no recordings")
            .arg(kernel);
    return {};
}

Result<QByteArray> readFileLimited(const QString& path, qint64 maxBytes) {
    if (const QString problem = readSourceProblem(path); !problem.isEmpty())
        return openFailure(path, problem);
    if (QFileInfo(path).size() > maxBytes) return openFailure(path, tooLarge(maxBytes));
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return openFailure(path, file.errorString());
    // In chunks, so memory follows what the file holds, never the limit.
    constexpr qint64 kChunk = qint64{1} << 20;
    QByteArray bytes;
    for (;;) {
        const QByteArray chunk = file.read(kChunk);
        if (file.error() != QFileDevice::NoError) return openFailure(path, file.errorString());
        if (chunk.isEmpty()) return bytes;
        if (bytes.size() + chunk.size() > maxBytes) return openFailure(path, tooLarge(maxBytes));
        bytes += chunk;
    }
}

}  // namespace fusescope::model

#include "model/atomic_save.h"

#include <QDir>
#include <QFileInfo>
#include <QSaveFile>
#include <QTemporaryFile>

#include "model/file_kind.h"

namespace fusescope::model {
namespace {

Status writeFailure(const QString& path, const QString& reason) {
    return Status(ErrorCode::IoError,
                  QStringLiteral("cannot write %1: %2").arg(path, reason).toStdString());
}

// QSaveFile creates its temporary file in the target's folder; prove that works before a run.
QString folderProblem(const QFileInfo& info) {
    const QString folder = info.absolutePath();
    if (!QFileInfo(folder).isDir())
        return QStringLiteral("the folder %1 does not exist").arg(folder);
    if (const QString kernel = kernelFileSystemName(folder); !kernel.isEmpty())
        return QStringLiteral("%1 is on %2, a kernel file system that holds no saved files")
            .arg(folder, kernel);
    QTemporaryFile probe(QDir(folder).filePath(QStringLiteral(".fusescope-probe-XXXXXX")));
    if (!probe.open())
        return QStringLiteral("no new file can be created in the folder %1 (%2)")
            .arg(folder, probe.errorString());
    return {};
}

}  // namespace

QString saveTargetProblem(const QString& path) {
    if (path.isEmpty()) return QStringLiteral("no file name was given");
    QFileInfo info(path);
    // A save through a link writes where the link points: check that file and its folder.
    if (info.isSymLink()) {
        const QString target = info.symLinkTarget();
        if (!info.exists())
            return QStringLiteral("it is a symbolic link to %1, which does not exist").arg(target);
        info = QFileInfo(info.canonicalFilePath());
    }
    if (info.exists()) {
        if (info.isDir()) return QStringLiteral("it is a folder");
        if (const QString special = specialFileKind(info.filePath()); !special.isEmpty())
            return QStringLiteral("it is %1, not a regular file").arg(special);
        if (const QString kernel = kernelFileSystemName(info.filePath()); !kernel.isEmpty())
            return QStringLiteral("it lies on %1, a kernel file system that holds no saved files")
                .arg(kernel);
        if (!info.isWritable()) return QStringLiteral("it is read-only");
    }
    return folderProblem(info);
}

Status saveBytesAtomically(const QByteArray& bytes, const QString& path) {
    if (const QString problem = saveTargetProblem(path); !problem.isEmpty())
        return writeFailure(path, problem);
    QSaveFile file(path);
    // Unbuffered: a refused write shows at once with its reason. Through Qt's buffer, a write cut
    // short by a full disk surfaces only at the flush, as "Unknown error".
    if (!file.open(QIODevice::WriteOnly | QIODevice::Unbuffered))
        return writeFailure(path, file.errorString());
    qint64 written = 0;
    while (written < bytes.size()) {
        const qint64 step = file.write(bytes.constData() + written, bytes.size() - written);
        if (step <= 0) {
            const QString reason = file.errorString();
            file.cancelWriting();
            return writeFailure(path, reason);
        }
        written += step;
    }
    // commit() must never replace the target with what little reached the temporary file.
    if (!file.flush() || file.error() != QFileDevice::NoError) {
        const QString reason = file.errorString();
        file.cancelWriting();
        return writeFailure(path, reason);
    }
    if (!file.commit()) return writeFailure(path, file.errorString());
    return Status::ok();
}

}  // namespace fusescope::model

#pragma once
// Exports (charts, stage frames and GIFs, screenshots) are rendered in memory and then saved with
// model::saveBytesAtomically, so a failed export leaves no partial file and keeps the previous
// one. Header-only: the chart, stage and sweep libraries below the GUI all use it.
#include <QBuffer>
#include <QByteArray>
#include <QImage>
#include <QString>

#include "model/atomic_save.h"

namespace fusescope {

// Empty on success, else "cannot write PATH: reason".
inline QString saveExportBytes(const QByteArray& bytes, const QString& path) {
    if (bytes.isEmpty()) return QStringLiteral("cannot write %1: nothing was rendered").arg(path);
    const Status saved = model::saveBytesAtomically(bytes, path);
    return saved ? QString() : QString::fromStdString(saved.message());
}

inline QString saveImageAsPng(const QImage& image, const QString& path) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    if (image.isNull() || !buffer.open(QIODevice::WriteOnly) || !image.save(&buffer, "PNG"))
        return QStringLiteral("cannot write %1: the image could not be encoded as PNG").arg(path);
    return saveExportBytes(bytes, path);
}

}  // namespace fusescope

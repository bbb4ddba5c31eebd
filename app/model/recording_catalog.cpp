#include "model/recording_catalog.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

#include "model/limited_read.h"
#include "model/recording_description.h"
#include "model/recording_json.h"
#include "model/sweep_json.h"
#include "model/tile_sweep_json.h"

namespace fusescope::model {
namespace {

// A file neither loader reads (another tool's format, say): named by its own "format",
// "title" and "description" where it has them.
CatalogEntry describeOther(CatalogEntry entry) {
    Result<QByteArray> bytes = readFileLimited(entry.path);
    if (!bytes) {
        entry.error = QString::fromStdString(bytes.status().message());
        return entry;
    }
    const QJsonObject root = QJsonDocument::fromJson(*bytes).object();
    const QString format = root.value(QStringLiteral("format")).toString();
    entry.title = root.value(QStringLiteral("title")).toString(entry.fileName);
    entry.description =
        root.value(QStringLiteral("description")).toString(QStringLiteral("a %1 file").arg(format));
    const QJsonObject device = root.value(QStringLiteral("device")).toObject();
    entry.deviceName = device.value(QStringLiteral("name")).toString();
    entry.backend = device.value(QStringLiteral("backend")).toString();
    entry.createdAt = root.value(QStringLiteral("created_at"))
                          .toString(root.value(QStringLiteral("created")).toString());
    return entry;
}

// The "format" a JSON file names itself with; empty when it names none (or is no JSON object).
QString formatOf(const QString& path) {
    Result<QByteArray> bytes = readFileLimited(path);
    if (!bytes) return {};
    return QJsonDocument::fromJson(*bytes).object().value(QStringLiteral("format")).toString();
}

}  // namespace

QStringList shippedRecordingFolders() {
    QStringList folders;
    const QString programFolder = QCoreApplication::applicationDirPath();
    if (!programFolder.isEmpty())
        folders << QDir::cleanPath(programFolder +
                                   QStringLiteral("/../share/fusescope/recordings"));
    folders << QStringLiteral(FUSESCOPE_SOURCE_RECORDINGS_DIR);
    return folders;
}

CatalogEntry describeFile(const QString& path) {
    CatalogEntry entry;
    entry.path = path;
    entry.fileName = QFileInfo(path).fileName();
    if (const QString problem = readSourceProblem(path); !problem.isEmpty()) {
        entry.error = QStringLiteral("%1: %2").arg(path, problem);
        return entry;
    }
    if (isTileSweepFile(path)) {
        entry.kind = CatalogKind::TileSweep;
        const Result<tiles::TileSweep> sweep = loadTileSweep(path);
        if (!sweep) {
            entry.error = QString::fromStdString(sweep.status().message());
            return entry;
        }
        entry.title = tileSweepTitle(*sweep);
        entry.description = tileSweepDescription(*sweep);
        entry.deviceName = tileSweepDevice(*sweep);
        entry.backend = QStringLiteral("cuda");
        entry.createdAt = QString::fromStdString(sweep->created);
        return entry;
    }
    if (isSweepFile(path)) {
        entry.kind = CatalogKind::Sweep;
        const Result<SweepFile> sweep = loadSweepFile(path);
        if (!sweep) {
            entry.error = QString::fromStdString(sweep.status().message());
            return entry;
        }
        entry.title = sweepTitle(*sweep);
        entry.description = sweepDescription(*sweep);
        entry.deviceName = QString::fromStdString(sweep->report.device.name);
        entry.backend = QString::fromLatin1(backendName(sweep->report.device.backend));
        entry.createdAt = sweep->created;
        return entry;
    }
    const Result<Recording> recording = loadRecording(path);
    if (!recording) {
        const QString format = formatOf(path);
        if (!format.isEmpty() && format != QLatin1String(kRecordingFormat))
            return describeOther(entry);
        entry.error = QString::fromStdString(recording.status().message());
        return entry;
    }
    entry.kind = CatalogKind::Recording;
    entry.title = recordingTitle(*recording);
    entry.description = recordingDescription(*recording);
    entry.deviceName = QString::fromStdString(recording->device.name);
    entry.backend = QString::fromLatin1(backendName(recording->device.backend));
    entry.createdAt = recording->createdAt;
    return entry;
}

RecordingCatalog findRecordings(const QStringList& folders) {
    RecordingCatalog catalog;
    catalog.foldersSearched = folders;
    for (const QString& folder : folders) {
        const QDir dir(folder);
        if (folder.isEmpty() || !dir.exists()) continue;
        catalog.folder = dir.absolutePath();
        for (const QString& name :
             dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
            catalog.entries << describeFile(dir.filePath(name));
        break;
    }
    return catalog;
}

}  // namespace fusescope::model

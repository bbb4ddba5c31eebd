#pragma once
// The recordings that ship with FuseScope (made on a real GPU), found where the program is
// installed, each with a one-line description of what it shows. The start page lists them, the
// self-test checks that they load.
#include <QString>
#include <QStringList>
#include <QVector>

namespace fusescope::model {

enum class CatalogKind { Recording, Sweep, TileSweep, Other };

struct CatalogEntry {
    QString path;
    QString fileName;
    CatalogKind kind = CatalogKind::Other;
    QString title;  // "SwiGLU activation on NVIDIA H200", "Size sweep of ...", "Tile sweep of ..."
    QString description;  // one line: what it shows (the file's own description, or derived)
    QString deviceName;   // "NVIDIA H200"; empty when the file does not say
    QString backend;      // "cuda", "cpu"; empty when the file does not say
    QString createdAt;    // as recorded (ISO 8601)
    QString error;        // the loader's message when it does not load; empty when it does
};

struct RecordingCatalog {
    QStringList foldersSearched;
    QString folder;  // the first folder of foldersSearched that exists; empty when none
    QVector<CatalogEntry> entries;  // every *.json of that folder, by file name
};

// Where shipped recordings are installed: share/fusescope/recordings beside the program's bin/
// folder (the Debian package and the portable bundle), then the source tree's
// resources/recordings (a program run from its build folder).
QStringList shippedRecordingFolders();

// One file described (loaded with the same loaders and limits as File > Open).
CatalogEntry describeFile(const QString& path);
// The first existing folder of `folders`, every *.json in it described.
RecordingCatalog findRecordings(const QStringList& folders);
inline RecordingCatalog findShippedRecordings() {
    return findRecordings(shippedRecordingFolders());
}

}  // namespace fusescope::model

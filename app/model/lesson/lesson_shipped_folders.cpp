// Where the shipped plans and learner kernels are found, installed or in the source tree.
#include <QCoreApplication>
#include <QDir>

#include "model/lesson/lesson_plan.h"

namespace fusescope::model {
namespace {

// share/fusescope/NAME beside the program's bin/ folder, then the source tree's folder.
QStringList shippedFolders(const QString& name, const QString& sourceFolder) {
    QStringList folders;
    const QString programFolder = QCoreApplication::applicationDirPath();
    if (!programFolder.isEmpty())
        folders << QDir::cleanPath(programFolder + QStringLiteral("/../share/fusescope/") + name);
    folders << sourceFolder;
    return folders;
}

}  // namespace

QStringList shippedLessonFolders() {
    return shippedFolders(QStringLiteral("lessons"), QStringLiteral(FUSESCOPE_SOURCE_LESSONS_DIR));
}

QStringList shippedKernelFolders() {
    return shippedFolders(QStringLiteral("lab"), QStringLiteral(FUSESCOPE_SOURCE_LAB_DIR));
}

}  // namespace fusescope::model

#pragma once
// The window program (FUSESCOPE_GUI_PATH, which the test target defines) started as a separate
// process, waited for with a time limit, and what it said.
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace testsupport {

struct GuiOutcome {
    int exitCode = -1;  // -2: it crashed
    QString out;
    QString err;  // "timed out" when it was killed at the time limit
};

// This process's environment as on a machine with no display: no DISPLAY, no Wayland, no
// QT_QPA_PLATFORM.
inline QProcessEnvironment environmentWithoutDisplay() {
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
        environment.remove(QString::fromLatin1(name));
    return environment;
}

// Starts the window program in `process` (its environment already set) with `arguments` and
// waits for it to end; past `timeoutMs` it is killed.
inline GuiOutcome finishGui(QProcess& process, const QStringList& arguments, int timeoutMs) {
    process.start(QStringLiteral(FUSESCOPE_GUI_PATH), arguments);
    GuiOutcome outcome;
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
        outcome.err = QStringLiteral("timed out");
        return outcome;
    }
    outcome.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2;
    outcome.out = QString::fromLocal8Bit(process.readAllStandardOutput());
    outcome.err = QString::fromLocal8Bit(process.readAllStandardError());
    return outcome;
}

}  // namespace testsupport

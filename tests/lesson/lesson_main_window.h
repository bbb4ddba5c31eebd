#pragma once
// A main window for a lesson test: its settings file and the lessons' saved progress (under
// XDG_DATA_HOME) in the test's own temporary folder, its backends probed.
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>

#include "ui/window/main_window.h"

struct LessonMainWindow {
    QTemporaryDir folder;
    QSettings settings{settingsPath(folder), QSettings::IniFormat};
    fusescope::MainWindow window{&settings};

    // Whether the window knows its backends (what runs live depends on them).
    bool probed() {
        if (window.backendsKnown()) return true;
        QSignalSpy done(&window, &fusescope::MainWindow::backendsProbed);
        return done.wait(60000);
    }

  private:
    static QString settingsPath(const QTemporaryDir& folder) {
        qputenv("XDG_DATA_HOME", folder.filePath(QStringLiteral("data")).toUtf8());
        return folder.filePath(QStringLiteral("settings.ini"));
    }
};

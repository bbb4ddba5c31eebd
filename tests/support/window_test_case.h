#pragma once
// The base of the Qt Test classes that open main windows: before each test function, a fresh
// temporary folder holding the window's settings (folder_), so no test reads or writes the user's
// own settings or another test's files.
#include <QObject>
#include <optional>

#include "support/settings_folder.h"

namespace testsupport {

class WindowTestCase : public QObject {
    Q_OBJECT
  private slots:
    void init();  // Qt Test calls it before every test function of the derived class

  protected:
    std::optional<SettingsFolder> folder_;
};

}  // namespace testsupport

#pragma once
// A temporary folder with the window's settings file inside, so a test never reads or writes the
// user's own settings and every file it saves lies in one place that is removed afterwards.
#include <QSettings>
#include <QString>
#include <QTemporaryDir>

namespace testsupport {

class SettingsFolder {
  public:
    SettingsFolder()
        : settings_(directory_.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat) {}
    SettingsFolder(const SettingsFolder&) = delete;
    SettingsFolder& operator=(const SettingsFolder&) = delete;

    bool isValid() const { return directory_.isValid(); }
    QSettings* settings() { return &settings_; }
    QString filePath(const QString& name) const { return directory_.filePath(name); }

  private:
    QTemporaryDir directory_;
    QSettings settings_;
};

}  // namespace testsupport

#pragma once
// File > Open Recent: the recordings and sweeps opened last, newest first, remembered in
// QSettings; files that are gone are pruned whenever the list is read.
#include <QObject>
#include <QStringList>

class QMenu;
class QSettings;

namespace fusescope {

class RecentFiles final : public QObject {
    Q_OBJECT
  public:
    static constexpr int kMaxFiles = 10;

    // `settings` is not owned and must outlive this.
    RecentFiles(QSettings* settings, QObject* parent = nullptr);

    // Puts `path` first (as an absolute path), drops its older entry, keeps kMaxFiles.
    void add(const QString& path);
    // The remembered files that still exist, newest first; the settings lose the others.
    QStringList files();
    void clear();

    // Fills `menu` with the files each time it is about to show: one action per file, then
    // "Clear list"; a disabled "No recent files" when there are none.
    void attachTo(QMenu* menu);

  signals:
    void openRequested(const QString& path);

  private:
    void store(const QStringList& files);
    void fill(QMenu* menu);

    QSettings* settings_;
};

}  // namespace fusescope

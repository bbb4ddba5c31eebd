#include "ui/window/recent_files.h"

#include <QDir>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>

namespace fusescope {
namespace {

const QString kKey = QStringLiteral("files/recent");

}  // namespace

RecentFiles::RecentFiles(QSettings* settings, QObject* parent)
    : QObject(parent), settings_(settings) {}

void RecentFiles::add(const QString& path) {
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList list = settings_->value(kKey).toStringList();
    list.removeAll(absolute);
    list.prepend(absolute);
    while (list.size() > kMaxFiles) list.removeLast();
    store(list);
}

QStringList RecentFiles::files() {
    const QStringList stored = settings_->value(kKey).toStringList();
    QStringList existing;
    for (const QString& path : stored)
        if (QFileInfo(path).isFile() && !existing.contains(path)) existing << path;
    if (existing != stored) store(existing);
    return existing;
}

void RecentFiles::clear() {
    store({});
}

void RecentFiles::store(const QStringList& list) {
    settings_->setValue(kKey, list);
}

void RecentFiles::attachTo(QMenu* menu) {
    connect(menu, &QMenu::aboutToShow, this, [this, menu] { fill(menu); });
    fill(menu);
}

void RecentFiles::fill(QMenu* menu) {
    menu->clear();
    const QStringList list = files();
    if (list.isEmpty()) {
        menu->addAction(tr("No recent files"))->setEnabled(false);
        return;
    }
    for (int index = 0; index < list.size(); ++index) {
        const QString path = list[index];
        // &1 .. &9 as mnemonics; the folder says which of two equal names it is.
        const QString mnemonic = index < 9 ? QStringLiteral("&%1 ").arg(index + 1) : QString();
        QAction* action = menu->addAction(
            mnemonic + QFileInfo(path).fileName().replace(QLatin1Char('&'), QStringLiteral("&&")));
        action->setToolTip(QDir::toNativeSeparators(path));
        action->setStatusTip(QDir::toNativeSeparators(path));
        connect(action, &QAction::triggered, this, [this, path] { emit openRequested(path); });
    }
    menu->addSeparator();
    menu->addAction(tr("&Clear list"), this, &RecentFiles::clear);
}

}  // namespace fusescope

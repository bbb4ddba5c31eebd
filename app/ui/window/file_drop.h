#pragma once
// Drag and drop of a recording or sweep onto the window: an event filter on the window that
// accepts one local file and hands its path on. The window's own children need not know.
#include <QObject>
#include <QString>
#include <functional>

class QMimeData;
class QWidget;

namespace fusescope {

class FileDropFilter final : public QObject {
    Q_OBJECT
  public:
    // Makes `window` accept drops; `open` gets the dropped file's path.
    FileDropFilter(QWidget* window, std::function<void(const QString&)> open);

    // The one local file a drag carries, or empty (several files, remote URLs, text).
    static QString droppedFile(const QMimeData* data);

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    std::function<void(const QString&)> open_;
};

}  // namespace fusescope

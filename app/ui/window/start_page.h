#pragma once
// The window's first view: whether a GPU is usable here (in words, the reason on demand) and
// what to do next: open a recording that ships with FuseScope (one click), run on the CPU (or
// the GPU), or open a file. Fed plain data; it only emits what the user asked for.
#include <QWidget>

#include "model/recording_catalog.h"

class QCommandLinkButton;
class QLabel;
class QPushButton;
class QToolButton;
class QVBoxLayout;

namespace fusescope {

class StartPage final : public QWidget {
    Q_OBJECT
  public:
    explicit StartPage(QWidget* parent = nullptr);

    // Not yet known: "Looking for a GPU…". Known: usable (with its name) or not (with why).
    void setGpuUnknown();
    void setGpu(bool usable, const QString& deviceName, const QString& reason);
    // Lists the entries that load and whose kind the window opens (openableKinds).
    void setCatalog(const model::RecordingCatalog& catalog);
    // The kinds of file the window can open; others are left off the list. Recordings and size
    // sweeps by default; the window adds tile sweeps (its Tile explorer opens them).
    void setOpenableKinds(const QList<model::CatalogKind>& kinds) { openable_ = kinds; }

    // For tests and screenshots.
    QLabel* headline() const { return headline_; }
    QLabel* summary() const { return summary_; }
    QLabel* details() const { return details_; }
    QToolButton* detailsButton() const { return detailsButton_; }
    // One button per shipped recording that loads: its title, and its description below.
    QList<QCommandLinkButton*> recordingButtons() const { return buttons_; }
    QPushButton* runButton() const { return run_; }
    QPushButton* openButton() const { return open_; }

  signals:
    void openRecordingRequested(const QString& path);
    void runRequested();
    void openFileRequested();

  private:
    QLabel* headline_ = nullptr;
    QLabel* summary_ = nullptr;
    QToolButton* detailsButton_ = nullptr;
    QLabel* details_ = nullptr;
    QLabel* recordingsTitle_ = nullptr;
    QVBoxLayout* recordings_ = nullptr;
    QList<QCommandLinkButton*> buttons_;
    QList<model::CatalogKind> openable_{model::CatalogKind::Recording, model::CatalogKind::Sweep};
    QLabel* noRecordings_ = nullptr;
    QPushButton* run_ = nullptr;
    QPushButton* open_ = nullptr;
};

}  // namespace fusescope

#include "ui/lab/lab_wiring.h"

#include <QFileDialog>
#include <QMessageBox>
#include <QStatusBar>
#include <QTabWidget>

#include "ui/lab/lab_view.h"
#include "ui/window/main_window.h"
#include "ui/window/tab_room.h"

namespace fusescope {

LabView* addLabView(MainWindow& window) {
    auto* lab = new LabView;
    lab->setObjectName(QStringLiteral("labView"));
    window.chartTabs()->addTab(lab, QObject::tr("Lab"));
    // The editor needs the height: at 1280x720 the results would leave it a strip.
    giveRoomWhileShown(window.chartTabs(), lab, true);
    const auto followGpu = [&window, lab] {
        const BackendSummary& summary = window.backendSummary();
        lab->setGpu(summary.cudaUsable, summary.cudaReason);
    };
    QObject::connect(&window, &MainWindow::backendsProbed, lab, followGpu);
    if (window.backendsKnown()) followGpu();
    QObject::connect(lab, &LabView::recordingReady, &window, [&window](const QString& path) {
        if (const QString error = window.openRecording(path); !error.isEmpty())
            window.statusBar()->showMessage(error);
    });
    QObject::connect(lab, &LabView::openRecordingRequested, &window, [&window, lab] {
        const QString path = QFileDialog::getOpenFileName(
            lab, QObject::tr("Open a recording made with --kernel-file"), {},
            QObject::tr("Recordings (*.json)"));
        if (!path.isEmpty()) window.openFromUser(path);
    });
    return lab;
}

}  // namespace fusescope

#include "ui/explorer/tile_explorer_wiring.h"
#include "ui/window/tab_room.h"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <memory>

#include "ui/explorer/tile_explorer_tab.h"
#include "ui/explorer/tile_heatmap.h"
#include "ui/explorer/tile_roofline.h"
#include "ui/explorer/tile_sweep_view.h"
#include "ui/export/chart_export.h"
#include "ui/run/run_panel.h"
#include "ui/window/main_window.h"

namespace fusescope {
namespace {

// Right-click on the heatmap or the roofline: export it like every other chart.
void offerExport(MainWindow& window, QCustomPlot* plot, const QString& fileStem) {
    plot->setContextMenuPolicy(Qt::CustomContextMenu);
    QObject::connect(
        plot, &QWidget::customContextMenuRequested, plot,
        [&window, plot, fileStem](const QPoint& at) {
            QMenu menu(plot);
            QAction* exportAction = menu.addAction(QObject::tr("Export chart…"));
            if (menu.exec(plot->mapToGlobal(at)) != exportAction) return;
            QSettings* settings = window.settings();
            const QString directory =
                settings->value(QStringLiteral("files/lastDirectory")).toString();
            const QString path = QFileDialog::getSaveFileName(
                &window, QObject::tr("Export chart"),
                directory + QLatin1Char('/') + fileStem + QStringLiteral(".png"),
                QObject::tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"));
            if (path.isEmpty()) return;
            settings->setValue(QStringLiteral("files/lastDirectory"),
                               QFileInfo(path).absolutePath());
            const QString target =
                isSupportedChartFormat(path) ? path : path + QStringLiteral(".png");
            if (const QString error = exportChart(*plot, target); !error.isEmpty())
                QMessageBox::critical(&window, QObject::tr("Cannot export chart"), error);
            else
                window.statusBar()->showMessage(
                    QObject::tr("Exported %1").arg(QDir::toNativeSeparators(target)), 5000);
        });
}

}  // namespace

TileExplorerTab* addTileExplorer(MainWindow& window) {
    auto* explorer = new TileExplorerTab(window.runController());
    explorer->setObjectName(QStringLiteral("tileExplorer"));
    explorer->setSettings(window.settings());
    window.chartTabs()->addTab(explorer, QObject::tr("Tile explorer"));
    // At 1280x720 and 150% the results' least height would leave the explorer a strip.
    giveRoomWhileShown(window.chartTabs(), explorer, true);
    QObject::connect(&window, &MainWindow::backendsProbed, explorer,
                     [&window, explorer] { explorer->setBackendSummary(window.backendSummary()); });
    // The run panel's backend and GPU hold for the explorer's runs and sweeps too.
    const auto followTarget = [&window, explorer] {
        explorer->setTarget(window.runPanel()->command().request.target);
    };
    for (QComboBox* choice : {window.runPanel()->backendCombo(), window.runPanel()->deviceCombo()})
        QObject::connect(choice, &QComboBox::currentIndexChanged, explorer, followTarget);
    followTarget();
    QObject::connect(explorer, &TileExplorerTab::recordingChosen, &window,
                     [&window](const model::Recording& recording) {
                         window.setRecording(recording);
                         window.showRecordedRequestInPanel(recording);
                         window.statusBar()->showMessage(
                             QObject::tr("Showing a tile configuration in the results, the charts "
                                         "and the memory stage"),
                             5000);
                     });
    QObject::connect(
        explorer, &TileExplorerTab::sweepEnded, &window,
        [&window](bool, const QString& message) { window.statusBar()->showMessage(message); });
    offerExport(window, explorer->heatmap(), QStringLiteral("tile_heatmap"));
    offerExport(window, explorer->roofline(), QStringLiteral("tile_roofline"));
    return explorer;
}

QString openTileSweepInWindow(MainWindow& window, TileExplorerTab& explorer, const QString& path) {
    if (const QString error = explorer.openTileSweepFile(path); !error.isEmpty()) return error;
    // One state: the run panel shows the sweep's pipeline, shape and variants (its best cell's
    // tiles), so that Run repeats what is on screen.
    const tiles::TileSweep& sweep = explorer.sweep();
    int shown = -1;
    for (int index = 0; index < static_cast<int>(sweep.cells.size()); ++index) {
        const tiles::TileCell& cell = sweep.cells[static_cast<std::size_t>(index)];
        if (cell.measured && (shown < 0 || cell.best)) shown = index;
    }
    if (shown >= 0) window.showRecordedRequestInPanel(recordingOfCell(sweep, shown));
    window.chartTabs()->setCurrentWidget(&explorer);
    window.setWindowTitle(QObject::tr("%1 — FuseScope").arg(QFileInfo(path).fileName()));
    window.statusBar()->showMessage(
        QObject::tr("Opened the tile sweep %1").arg(QDir::toNativeSeparators(path)));
    return {};
}

}  // namespace fusescope

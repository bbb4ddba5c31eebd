// Tile sweeps in and out of the tab: one shown (measured here or opened from a file), cleared,
// opened and saved (format fusescope-tiles).
#include <QDir>
#include <QFileDialog>
#include <QLabel>

#include "model/tile_sweep_json.h"
#include "ui/explorer/tile_explorer_tab.h"
#include "ui/explorer/tile_explorer_widgets.h"

namespace fusescope {
using explorer::qs;

void TileExplorerTab::showSweep(const tiles::TileSweep& sweep, const QString& source) {
    sweep_ = sweep;
    sweepSource_ = source;
    // The selectors show the sweep's kernel, shape and base tiles, so the report is about what
    // is shown; then the axes are the sweep's.
    setConfiguration(sweep.request.base);
    fillAxisChoices();
    refreshViews();
    updateEnabled();
}

void TileExplorerTab::clearSweep() {
    status_->setText(QString());
    if (sweeping_) {
        cancelSweep();
        endSweep(false, tr("Cancelled: another file was opened"));
    }
    sweep_ = {};
    sweepSource_.clear();
    refreshViews();
    updateEnabled();
}

QString TileExplorerTab::openTileSweepFile(const QString& path) {
    // A recorded sweep replaces the one running: that one is cancelled and its cells dropped.
    if (sweeping_) {
        cancelSweep();
        endSweep(false, tr("Cancelled: a recorded sweep was opened"));
    }
    Result<tiles::TileSweep> loaded = model::loadTileSweep(path);
    if (!loaded) return qs(loaded.status().message());
    showSweep(*loaded,
              tr("recorded: %1 (%2)")
                  .arg(QDir::toNativeSeparators(path),
                       qs(loaded->deviceName.empty() ? loaded->limits.name : loaded->deviceName)));
    QString shown = tr("Showing the recorded sweep %1 (%2 configurations).")
                        .arg(QDir::toNativeSeparators(path))
                        .arg(loaded->cells.size());
    if (loaded->peer)
        shown += QLatin1Char(' ') +
                 tr("It holds %1's times at the same tiles: Metric \"%2\" "
                    "compares them.")
                     .arg(qs(loaded->peer->name), tileMetricTitle(TileMetric::AgainstPeer));
    status_->setText(shown);
    return {};
}

QString TileExplorerTab::saveTileSweepFile(const QString& path) const {
    if (sweep_.cells.empty()) return tr("There is no tile sweep to save yet.");
    if (sweeping_) return tr("The sweep is still running.");
    const Status saved = model::saveTileSweep(sweep_, path);
    return saved ? QString() : qs(saved.message());
}

void TileExplorerTab::saveWithDialog() {
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Save tile sweep"), QStringLiteral("tiles.json"),
                                     tr("FuseScope tile sweeps (*.json)"));
    if (path.isEmpty()) return;
    const QString error = saveTileSweepFile(path);
    status_->setText(error.isEmpty() ? tr("Saved %1").arg(QDir::toNativeSeparators(path)) : error);
}

}  // namespace fusescope

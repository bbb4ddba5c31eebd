#pragma once
// What the Tile explorer's sweep tests set up and count alike, through the real worker on the CPU
// backend (tile_explorer_sweep_test.cpp) or with the stand-in engine in its tile path
// (tile_explorer_standin_test.cpp): the tab ready to sweep a small grid, the measured and drawn
// cells, a user going through the tiles while the worker is busy, and the one report answered.
#include <QComboBox>
#include <QCoreApplication>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QtTest>
#include <utility>

#include "tiles/tile_types.h"
#include "ui/explorer/tile_explorer_tab.h"
#include "ui/explorer/tile_heatmap.h"
#include "worker/run_controller.h"

namespace fusescope::testing {

// Waits up to `timeoutMs` for a spy's first signal unless it came already.
inline bool arrived(QSignalSpy& spy, int timeoutMs) {
    return !spy.isEmpty() || spy.wait(timeoutMs);
}

// The tab on the CPU backend with an M x 64 x 64 problem, sweeping block_m and block_n over
// their first `lastValueIndex + 1` values (16, 32, ...), the other tiles fixed, `repeats` timings
// a cell.
inline void prepareSweep(TileExplorerTab& tab, RunController& controller, int lastValueIndex,
                         int repeats, int rows) {
    QSignalSpy probed(&controller, &RunController::backendsProbed);
    controller.probe();
    QVERIFY(probed.wait(30000));
    tab.setBackendSummary(probed.first().first().value<BackendSummary>());
    tab.setTarget(Target{BackendChoice::Cpu, std::nullopt});
    for (const auto& [name, value] : {std::pair{"M", rows}, {"H", 64}, {"I", 64}}) {
        auto* spin = tab.findChild<QSpinBox*>(QStringLiteral("explorerDimension_%1").arg(name));
        QVERIFY(spin);
        spin->setValue(value);
    }
    for (const char* name : {"block_m", "block_n"}) {
        tab.rangeFromCombo(name)->setCurrentIndex(0);
        tab.rangeToCombo(name)->setCurrentIndex(lastValueIndex);
    }
    for (const char* name : {"block_h", "block_i"}) {
        tab.rangeFromCombo(name)->setCurrentIndex(0);
        tab.rangeToCombo(name)->setCurrentIndex(0);
    }
    tab.repeatsSpin()->setValue(repeats);
    QVERIFY(tab.canMeasure());
    QVERIFY(tab.sweepButton()->isEnabled());
}

inline int measuredCells(const tiles::TileSweep& sweep) {
    int measured = 0;
    for (const tiles::TileCell& cell : sweep.cells) measured += cell.measured ? 1 : 0;
    return measured;
}

// The heatmap's cells that show a value.
inline int drawnCells(const TileHeatmap& heatmap) {
    int drawn = 0;
    for (const TileHeatmapCell& cell : heatmap.data().cells) drawn += cell.value ? 1 : 0;
    return drawn;
}

// The user goes through every BLOCK_I and back to BLOCK_H 64, each change delivered before the
// next: each asks for a report. Returns how many the tab asked for.
inline int goThroughEveryBlockI(TileExplorerTab& tab) {
    const int before = tab.reportRequests();
    QComboBox* blockI = tab.tileCombo("block_i");
    for (int index = 0; index < blockI->count(); ++index) {
        blockI->setCurrentIndex(index);
        QCoreApplication::processEvents();
    }
    QComboBox* blockH = tab.tileCombo("block_h");
    blockH->setCurrentIndex(blockH->findData(64));
    QCoreApplication::processEvents();
    return tab.reportRequests() - before;
}

// Once the worker is free again: the sweep ended and, of the reports asked while it was busy,
// only the newest one (`wanted`) was answered, and the tab shows it.
inline void verifyOnlyTheNewestReportAnswered(const TileExplorerTab& tab, QSignalSpy& ended,
                                              QSignalSpy& reports,
                                              const tiles::TileConfiguration& wanted,
                                              int timeoutMs) {
    QVERIFY(arrived(ended, timeoutMs));
    QVERIFY(arrived(reports, timeoutMs));
    QTest::qWait(200);  // any further (stale) answers would come now
    QCOMPARE(reports.size(), qsizetype(1));
    QCOMPARE(reports.first().first().value<TileReportOutcome>().report.configuration, wanted);
    QVERIFY(tab.shownReport());
    QCOMPARE(tab.shownReport()->configuration, wanted);
}

}  // namespace fusescope::testing

#include "ui/export/chart_export_actions.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QCursor>
#include <QKeyEvent>
#include <QMenu>
#include <QShortcut>

#include "ui/charts/plot.h"

namespace fusescope {
namespace {

void addPresetActions(QMenu* menu, QCustomPlot* plot, const ExportOne& exportOne) {
    for (const ExportPreset& preset : exportPresets())
        menu->addAction(QObject::tr("Export as %1…").arg(preset.title), plot,
                        [plot, preset, exportOne] { exportOne(plot, preset); });
}

}  // namespace

void fillExportMenuOnShow(QMenu* menu, QWidget* root, ExportOne exportOne) {
    QObject::connect(menu, &QMenu::aboutToShow, menu, [menu, root, exportOne] {
        menu->clear();
        for (QCustomPlot* plot : exportablePlots(root))
            addPresetActions(menu->addMenu(exportTitle(*plot)), plot, exportOne);
        if (menu->isEmpty()) menu->addAction(QObject::tr("(no chart)"))->setEnabled(false);
    });
}

void addChartContextMenus(QWidget* root, ExportOne exportOne) {
    for (QCustomPlot* plot : exportablePlots(root)) {
        if (plot->property("fusescopeContextMenu").toBool()) continue;
        plot->setProperty("fusescopeContextMenu", true);
        plot->setContextMenuPolicy(Qt::CustomContextMenu);
        QObject::connect(plot, &QWidget::customContextMenuRequested, plot,
                         [plot, exportOne](const QPoint& at) {
                             QMenu menu(plot);
                             addPresetActions(&menu, plot, exportOne);
                             menu.addSeparator();
                             QAction* copy = menu.addAction(QObject::tr("Copy image"), plot,
                                                            [plot] { copyChartImage(plot); });
                             copy->setShortcut(QKeySequence::Copy);
                             menu.exec(plot->mapToGlobal(at));
                         });
    }
}

QCustomPlot* plotAt(QWidget* window, const QPoint& globalPos) {
    QWidget* under = window->childAt(window->mapFromGlobal(globalPos));
    for (QWidget* each = under; each && each != window; each = each->parentWidget())
        if (auto* plot = qobject_cast<QCustomPlot*>(each))
            return plot->property("fusescopeExportTitle").isValid() ? plot : nullptr;
    return nullptr;
}

void copyChartImage(QCustomPlot* plot) {
    const ExportPreset* slide = findExportPreset(QStringLiteral("slide"));
    if (!plot || !slide) return;
    QApplication::clipboard()->setImage(renderChart(*plot, *slide));
}

void installCopyChartShortcut(QWidget* window) {
    // A shortcut of the window: the chart under the pointer has no focus to take the key. Where
    // no chart is under it, the focused widget gets the key as if there were no shortcut.
    auto* shortcut = new QShortcut(QKeySequence::Copy, window);
    shortcut->setContext(Qt::WindowShortcut);
    QObject::connect(shortcut, &QShortcut::activated, window, [window] {
        if (QCustomPlot* plot = plotAt(window, QCursor::pos())) {
            copyChartImage(plot);
            return;
        }
        if (QWidget* focused = QApplication::focusWidget()) {
            QKeyEvent press(QEvent::KeyPress, Qt::Key_C, Qt::ControlModifier);
            QApplication::sendEvent(focused, &press);
        }
    });
}

}  // namespace fusescope

// How the window lays out its views: the run panel's width, tables shown, zoom, theme, the
// presentation layout and the value axes.
#include "ui/window/main_window.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDateTime>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include "model/format.h"
#include "model/fusion_verdict.h"
#include "model/recording_json.h"
#include "model/sweep_json.h"
#include "model/tile_sweep_json.h"
#include "ui/charts/chart_interaction.h"
#include "ui/charts/charts.h"
#include "ui/charts/plot_font_follow.h"
#include "ui/charts/plot_text_fit.h"
#include "ui/explorer/tile_explorer_tab.h"
#include "ui/explorer/tile_explorer_wiring.h"
#include "ui/explorer/tile_heatmap.h"
#include "ui/explorer/tile_roofline.h"
#include "ui/export/chart_export.h"
#include "ui/export/chart_export_actions.h"
#include "ui/export/table_export.h"
#include "ui/results/results_model.h"
#include "ui/run/measurement_panel.h"
#include "ui/run/run_choices.h"
#include "ui/run/run_confirmation.h"
#include "ui/run/run_panel.h"
#include "ui/sweep/sweep_chart.h"
#include "ui/sweep/sweep_tab.h"
#include "ui/widgets/elided_label.h"
#include "ui/window/plugged_views.h"
#include "ui/window/self_test_dialog.h"
#include "worker/run_controller.h"

namespace fusescope {

void MainWindow::fitRunPanelWidth() {
    panelScroll_->setMinimumWidth(runPanel_->minimumSizeHint().width() +
                                  panelScroll_->style()->pixelMetric(QStyle::PM_ScrollBarExtent));
}

void MainWindow::changeEvent(QEvent* event) {
    QMainWindow::changeEvent(event);
    // The zoom or the theme changed the panel's least width.
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange)
        fitRunPanelWidth();
}

void MainWindow::setTablesShown(bool shown) {
    {
        const QSignalBlocker block(showTablesAction_);
        showTablesAction_->setChecked(shown);
    }
    const int index = viewTabs_->indexOf(resultsTab_);
    if (!shown && viewTabs_->currentIndex() == index)
        viewTabs_->setCurrentWidget(viewTabs_->findChild<QWidget*>(QStringLiteral("memoryStage")));
    viewTabs_->setTabVisible(index, shown);
    sweepTab_->setPointsTableShown(shown);
    settings_->setValue(QStringLiteral("view/showTables"), shown);
}

bool MainWindow::tablesShown() const {
    return viewTabs_->isTabVisible(viewTabs_->indexOf(resultsTab_));
}

void MainWindow::setZoom(double zoom) {
    zoom_ = clampZoom(zoom);
    applyZoom(zoom_);
    applyViewsFont();
    settings_->setValue(QStringLiteral("view/zoom"), zoom_);
    statusBar()->showMessage(tr("Zoom %1 %").arg(std::lround(zoom_ * 100)), 2000);
}

void MainWindow::setTheme(Theme theme) {
    theme_ = theme;
    applyTheme(theme);
    for (QAction* action : themeActions_) action->setChecked(action->data() == themeKey(theme));
    settings_->setValue(QStringLiteral("view/theme"), themeKey(theme));
}

void MainWindow::setPresentation(bool presentation, bool remember) {
    {
        const QSignalBlocker block(presentationAction_);
        presentationAction_->setChecked(presentation);
    }
    if (remember) settings_->setValue(QStringLiteral("view/presentation"), presentation);
    if (presentation == presentation_) return;
    presentation_ = presentation;
    // Before a class the verdict is read, not hovered: every losing fusion's cause in full.
    fusionVerdict_->setWrapped(presentation);
    // One chart to a tab: the run charts leave their row for tabs of their own, and go back.
    const QSignalBlocker quietTabs(chartTabs_);
    if (presentation) {
        const int at = chartTabs_->indexOf(chartSplitter_);
        const bool wasShown = chartTabs_->currentIndex() == at;
        chartTabs_->removeTab(at);
        // Short names: the bar keeps every tab in sight with large text; the chart says the rest.
        const QStringList names = {tr("Bytes per kernel"), tr("Time per variant"),
                                   tr("Allocation")};
        for (int i = static_cast<int>(charts_.size()) - 1; i >= 0; --i) {
            chartTabs_->insertTab(at, charts_[i], names.value(i, charts_[i]->title()));
            chartTabs_->setTabToolTip(at, charts_[i]->title());
        }
        if (wasShown) chartTabs_->setCurrentIndex(at);
    } else {
        const int at = chartTabs_->indexOf(charts_.front());
        const bool wasShown = at >= 0 && chartTabs_->currentIndex() >= at &&
                              chartTabs_->currentIndex() < at + charts_.size();
        for (ChartView* chart : charts_) chartTabs_->removeTab(chartTabs_->indexOf(chart));
        for (ChartView* chart : charts_) {
            chartSplitter_->addWidget(chart);
            chart->show();
        }
        chartTabs_->insertTab(std::max(at, 0), chartSplitter_, tr("Run charts"));
        if (wasShown) chartTabs_->setCurrentWidget(chartSplitter_);
    }
    if (presentation) {
        panelSizesBeforePresentation_ = mainSplitter_->sizes();
        viewSizesBeforePresentation_ = rightSplitter_->sizes();
        // Folded, not hidden: the splitter's handle brings the panel back for a moment.
        mainSplitter_->setSizes({0, 100000});
        applyViewsFont();
        presentTabs(presentedTabs_ ? presentedTabs_ : viewTabs_);
        fitVariantRows();
        return;
    }
    for (QTabWidget* tabs : {viewTabs_, chartTabs_}) {
        tabs->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
        tabs->setMaximumHeight(QWIDGETSIZE_MAX);
    }
    applyViewsFont();
    if (!panelSizesBeforePresentation_.isEmpty())
        mainSplitter_->setSizes(panelSizesBeforePresentation_);
    if (!viewSizesBeforePresentation_.isEmpty())
        rightSplitter_->setSizes(viewSizesBeforePresentation_);
}

void MainWindow::applyViewsFont() {
    // A default font inherits everything: the views then follow the application's zoom.
    const QFont font =
        presentation_ ? presentationFont(QApplication::font(), logicalDpiY()) : QFont();
    rightSplitter_->setFont(font);
    // Header views draw their sections in the font of their own, not the one they inherit.
    for (QHeaderView* header : rightSplitter_->findChildren<QHeaderView*>()) {
        header->setFont(font);
        header->viewport()->setFont(font);
    }
}

void MainWindow::presentTabs(QTabWidget* shown) {
    if (!presentation_) return;
    presentedTabs_ = shown;
    QTabWidget* folded = shown == viewTabs_ ? chartTabs_ : viewTabs_;
    // The folded tabs keep their bar, to be clicked; their least height no longer counts.
    folded->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Ignored);
    folded->setMaximumHeight(folded->tabBar()->sizeHint().height());
    shown->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    shown->setMaximumHeight(QWIDGETSIZE_MAX);
    // In the splitter's own pixels: sizes past its height would be scaled down, the bar with them.
    const int bar = folded->maximumHeight();
    const int total = rightSplitter_->height() - rightSplitter_->handleWidth();
    if (total <= bar) return;  // laid out when shown (eventFilter)
    rightSplitter_->setSizes(shown == viewTabs_ ? QList<int>{total - bar, bar}
                                                : QList<int>{bar, total - bar});
}

void MainWindow::fitVariantRows() {
    auto* results = qobject_cast<QSplitter*>(resultsTab_);
    if (!results || results->count() < 2) return;
    // Every variant's row, the header, the frame, a scroll bar where the columns run wide, and
    // the title line above the table; the kernels get the rest.
    const int table = variantTable_->horizontalHeader()->sizeHint().height() +
                      variantTable_->verticalHeader()->length() + 2 * variantTable_->frameWidth() +
                      variantTable_->horizontalScrollBar()->sizeHint().height() +
                      // A little room: the boxes' margins and rounding take a few pixels.
                      variantTable_->verticalHeader()->defaultSectionSize() / 3;
    // The title line holds the wrapped verdict: as tall as its lines at the width it has (not
    // its size hint, which holds the height of the width it had before and can be far taller).
    QLayout* box = results->widget(0)->layout();
    QLayout* line = box->itemAt(0) ? box->itemAt(0)->layout() : nullptr;
    const int lineWidth =
        results->width() - box->contentsMargins().left() - box->contentsMargins().right();
    const int title =
        std::max(line && line->hasHeightForWidth() ? line->heightForWidth(lineWidth) : 0,
                 fusionVerdict_->fontMetrics().height()) +
        box->spacing();
    const int total = results->height();
    if (total <= 0) return;  // laid out when shown (eventFilter)
    // The kernels keep their title, header, a whole row and their scroll bar: the variants, whose
    // rows the verdict speaks of, come first (at 1280 x 720 three of the MLP's four show whole,
    // two and a half where the kernels kept two rows).
    const int kernelRows = 1;
    const int kernels = fusionVerdict_->fontMetrics().height() +
                        kernelTable_->horizontalHeader()->sizeHint().height() +
                        kernelRows * kernelTable_->verticalHeader()->defaultSectionSize() +
                        2 * kernelTable_->frameWidth() +
                        kernelTable_->horizontalScrollBar()->sizeHint().height() +
                        results->handleWidth();
    const int wanted = std::min(table + title, std::max(total - kernels, 1));
    results->setSizes({wanted, std::max(total - wanted, 1)});
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event) {
    // The Results tab got its size (a resize, the first show): once its splitter has laid it out,
    // the variants get their rows.
    if (watched == resultsTab_ &&
        (event->type() == QEvent::Resize || event->type() == QEvent::Show) && presentation_)
        QTimer::singleShot(0, this, &MainWindow::fitVariantRows);
    // The views got a new height: the presented tabs take it, the others keep their bar.
    if (watched == rightSplitter_ && event->type() == QEvent::Resize && presentation_)
        QTimer::singleShot(0, this,
                           [this] { presentTabs(presentedTabs_ ? presentedTabs_ : viewTabs_); });
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::setValueScale(ValueScale scale) {
    valueScale_ = scale;
    for (QAction* action : valueScaleActions_)
        action->setChecked(action->data().toInt() == static_cast<int>(scale));
    for (ChartView* chart : charts_) chart->setValueScale(scale);
    emit valueScaleChanged(scale);
    settings_->setValue(QStringLiteral("view/valueScale"), static_cast<int>(scale));
}

}  // namespace fusescope

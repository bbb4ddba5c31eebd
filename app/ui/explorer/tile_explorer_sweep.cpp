// The sweep over ranges of the tile parameters (progress, ETA, Cancel; cells arrive one by one)
// and the heatmap and roofline that show it.
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTabWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "model/tile_choices.h"
#include "ui/explorer/tile_explorer_tab.h"
#include "ui/explorer/tile_explorer_widgets.h"
#include "ui/explorer/tile_heatmap.h"
#include "ui/explorer/tile_roofline.h"
#include "ui/widgets/shrinking_combo.h"
#include "worker/run_controller.h"

namespace fusescope {
using explorer::qs;
using explorer::selectValue;
using explorer::valueCombo;
using explorer::wrappingLabel;

namespace {

constexpr int kDefaultRepeats = 20;

QString etaText(double seconds) {
    if (seconds < 0) return QString();
    if (seconds < 90) return QObject::tr("about %1 s left").arg(std::lround(seconds));
    return QObject::tr("about %1 min left").arg(std::lround(seconds / 60.0));
}

// A tab of the views: `choices` (their layout inset from the page's sides) above `chart`, which
// takes the rest of the page.
void addViewPage(QTabWidget* views, const QString& title, QWidget* choices, QWidget* chart) {
    auto* page = new QWidget(views);
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 4, 0, 0);
    choices->layout()->setContentsMargins(4, 0, 4, 0);
    layout->addWidget(choices);
    layout->addWidget(chart, 1);
    views->addTab(page, title);
}

}  // namespace

QGroupBox* TileExplorerTab::buildSweepBox(QWidget* column) {
    const PipelineSpec* spec = pipeline();
    auto* sweepBox = new QGroupBox(tr("Sweep"), column);
    auto* sweepForm = new QFormLayout(sweepBox);
    sweepForm_ = sweepForm;
    if (spec)
        for (const TuningSpec& tuning : spec->tunings) {
            auto* row = new QWidget(sweepBox);
            auto* rowLayout = new QHBoxLayout(row);
            rowLayout->setContentsMargins(0, 0, 0, 0);
            QComboBox* from = valueCombo(tuning, row);
            QComboBox* to = valueCombo(tuning, row);
            from->setObjectName(QStringLiteral("explorerFrom_%1").arg(qs(tuning.name)));
            to->setObjectName(QStringLiteral("explorerTo_%1").arg(qs(tuning.name)));
            // Each kernel's first two parameters span their values; the others stay at the
            // selection.
            const auto sameKernel =
                std::count_if(ranges_.begin(), ranges_.end(), [&](const auto& range) {
                    const TuningSpec* other = spec->findTuning(range.first);
                    return other && other->variant == tuning.variant;
                });
            const bool spans = sameKernel < 2;
            selectValue(from, spans ? tuning.allowed.front() : tuning.defaultValue);
            selectValue(to, spans ? tuning.allowed.back() : tuning.defaultValue);
            rowLayout->addWidget(from, 1);
            rowLayout->addWidget(new QLabel(tr("to"), row));
            rowLayout->addWidget(to, 1);
            ranges_.push_back({tuning.name, {from, to}});
            rangeRows_[tuning.name] = row;
            sweepForm->addRow(qs(tuning.title), row);
            for (QComboBox* combo : {from, to})
                connect(combo, &QComboBox::currentIndexChanged, this,
                        &TileExplorerTab::updateSweepSize);
        }
    repeats_ = new QSpinBox(sweepBox);
    repeats_->setObjectName(QStringLiteral("explorerRepeats"));
    repeats_->setRange(3, 1000);
    repeats_->setValue(kDefaultRepeats);
    repeats_->setToolTip(
        tr("Timed repeats per configuration: the median and interquartile range "
           "decide the best and the ties."));
    sweepForm->addRow(tr("Repeats"), repeats_);
    sweepSize_ = wrappingLabel(sweepBox, QStringLiteral("explorerSweepSize"));
    sweepForm->addRow(sweepSize_);
    auto* buttons = new QWidget(sweepBox);
    auto* buttonLayout = new QHBoxLayout(buttons);
    buttonLayout->setContentsMargins(0, 0, 0, 0);
    sweepButton_ = new QPushButton(tr("Sweep"), buttons);
    sweepButton_->setObjectName(QStringLiteral("explorerSweep"));
    cancel_ = new QPushButton(tr("Cancel"), buttons);
    cancel_->setObjectName(QStringLiteral("explorerCancel"));
    save_ = new QPushButton(tr("Save…"), buttons);
    save_->setObjectName(QStringLiteral("explorerSave"));
    save_->setToolTip(
        tr("Save the sweep shown (format fusescope-tiles, as fusescope-cli tiles "
           "writes it)."));
    buttonLayout->addWidget(sweepButton_, 1);
    buttonLayout->addWidget(cancel_);
    buttonLayout->addWidget(save_);
    connect(save_, &QPushButton::clicked, this, &TileExplorerTab::saveWithDialog);
    sweepForm->addRow(buttons);
    progress_ = new QProgressBar(sweepBox);
    progress_->setObjectName(QStringLiteral("explorerProgress"));
    progress_->setRange(0, 1000);
    progress_->setValue(0);
    progress_->setTextVisible(false);
    sweepForm->addRow(progress_);
    status_ = wrappingLabel(sweepBox, QStringLiteral("explorerStatus"));
    sweepForm->addRow(status_);
    connect(sweepButton_, &QPushButton::clicked, this, &TileExplorerTab::startSweep);
    connect(cancel_, &QPushButton::clicked, this, &TileExplorerTab::cancelSweep);
    return sweepBox;
}

QWidget* TileExplorerTab::buildViews() {
    views_ = new QTabWidget;
    views_->setObjectName(QStringLiteral("explorerViews"));
    views_->setDocumentMode(true);

    auto* choices = new QWidget;
    auto* choiceLayout = new QVBoxLayout(choices);
    metric_ = shrinkingCombo(choices, QStringLiteral("explorerMetric"), 7);
    for (TileMetric metric : kAllTileMetrics)
        metric_->addItem(tileMetricTitle(metric), static_cast<int>(metric));
    xAxis_ = shrinkingCombo(choices, QStringLiteral("explorerXAxis"), 7);
    yAxis_ = shrinkingCombo(choices, QStringLiteral("explorerYAxis"), 7);
    others_ = shrinkingCombo(choices, QStringLiteral("explorerOthers"), 7);
    others_->addItem(tr("others: best"), true);
    others_->addItem(tr("others: as selected"), false);
    others_->setToolTip(
        tr("The parameters not on an axis: each cell shows the fastest of their "
           "values, or the values chosen under Tiles."));
    // Two short rows rather than one long one: the tab fits beside the run panel on a small
    // screen.
    auto* metricRow = new QHBoxLayout;
    metricRow->addWidget(new QLabel(tr("Metric"), choices));
    metricRow->addWidget(metric_, 3);
    metricRow->addWidget(others_, 2);
    auto* axesRow = new QHBoxLayout;
    axesRow->addWidget(new QLabel(tr("x"), choices));
    axesRow->addWidget(xAxis_, 1);
    axesRow->addWidget(new QLabel(tr("y"), choices));
    axesRow->addWidget(yAxis_, 1);
    axesRow->addStretch(1);
    choiceLayout->addLayout(metricRow);
    choiceLayout->addLayout(axesRow);
    heatmap_ = new TileHeatmap;
    addViewPage(views_, tr("Heatmap"), choices, heatmap_);

    auto* followRow = new QWidget;
    auto* followLayout = new QHBoxLayout(followRow);
    follow_ = shrinkingCombo(followRow, QStringLiteral("explorerFollow"), 7);
    follow_->setToolTip(
        tr("The arrows follow this parameter through its values, the others as "
           "selected under Tiles."));
    followLayout->addWidget(new QLabel(tr("Follow"), followRow));
    followLayout->addWidget(follow_, 1);
    followLayout->addStretch(2);
    roofline_ = new TileRoofline;
    addViewPage(views_, tr("Roofline"), followRow, roofline_);

    applyVariant();
    for (QComboBox* combo : {metric_, xAxis_, yAxis_, others_, follow_})
        connect(combo, &QComboBox::currentIndexChanged, this, &TileExplorerTab::refreshViews);
    connect(heatmap_, &TileHeatmap::cellClicked, this, [this](int index) {
        if (index < 0 || index >= static_cast<int>(sweep_.cells.size())) return;
        const tiles::TileCell& cell = sweep_.cells[static_cast<std::size_t>(index)];
        setConfiguration(cell.report.configuration);
        const model::Recording recording = recordingOfCell(sweep_, index);
        if (recording.runs.empty()) {
            status_->setText(tr("That configuration was not measured: nothing to load."));
            return;
        }
        status_->setText(tr("Loaded %1 into the results, the charts and the memory stage.")
                             .arg((model::tilesText(cell.report.configuration))));
        emit recordingChosen(recording);
    });
    return views_;
}

tiles::TileSweepRequest TileExplorerTab::sweepRequest() const {
    tiles::TileSweepRequest request;
    request.base = configuration();
    request.settings.repeats = repeats_->value();
    request.target = target_;
    for (const auto& [name, range] : ranges_) {
        if (!exploresTuning(name)) continue;
        const int from = range.first->currentData().toInt();
        const int to = range.second->currentData().toInt();
        std::vector<int> values;
        for (int index = 0; index < range.first->count(); ++index) {
            const int value = range.first->itemData(index).toInt();
            if (value >= std::min(from, to) && value <= std::max(from, to)) values.push_back(value);
        }
        if (values.size() == 1)
            request.base.problem.tuning[name] = values.front();
        else if (values.size() > 1)
            request.axes.push_back({name, values});
    }
    return request;
}

QString TileExplorerTab::sweepValidationMessage() const {
    if (sweepRequest().axes.empty())
        return tr("Give at least one parameter a range of two or more values.");
    return {};
}

void TileExplorerTab::updateSweepSize() {
    const tiles::TileSweepRequest request = sweepRequest();
    if (request.axes.empty()) {
        sweepSize_->setText(sweepValidationMessage());
    } else {
        QStringList sizes;
        std::size_t count = 1;
        for (const tiles::TileAxis& axis : request.axes) {
            sizes << QString::number(axis.values.size());
            count *= axis.values.size();
        }
        sweepSize_->setText(
            tr("%1 configurations (%2)").arg(count).arg(sizes.join(QStringLiteral(" × "))));
    }
    updateEnabled();
}

void TileExplorerTab::startSweep() {
    if (!controller_ || sweeping_ || runningOne_) return;
    if (const QString invalid = sweepValidationMessage(); !invalid.isEmpty()) {
        status_->setText(invalid);
        return;
    }
    if (controller_->isRunning()) {
        status_->setText(tr("Another run or sweep is in progress: wait for it or cancel it."));
        return;
    }
    TileSweepCommand command;
    command.request = sweepRequest();
    // The grid is drawn at once; cells fill in as they arrive.
    sweep_ = {};
    sweep_.request = command.request;
    sweep_.limits = modelLimits().value_or(tiles::DeviceLimits{});
    for (const tiles::TileConfiguration& configuration : tiles::configurationsOf(command.request)) {
        tiles::TileCell cell;
        cell.report.configuration = configuration;
        sweep_.cells.push_back(cell);
    }
    sweepSource_ = tr("measured now");
    sweeping_ = true;
    progress_->setValue(0);
    status_->setText(tr("Starting %1 configurations…").arg(sweep_.cells.size()));
    sweepClock_.start();
    fillAxisChoices();
    refreshViews();
    updateEnabled();
    controller_->submitTileSweep(command);
}

void TileExplorerTab::cancelSweep() {
    if (!controller_ || (!sweeping_ && !runningOne_)) return;
    controller_->cancel();
    status_->setText(tr("Cancelling…"));
}

void TileExplorerTab::onSweepStarted(const QString& note) {
    if (!sweeping_) return;
    status_->setText(note);
}

void TileExplorerTab::onSweepProgress(const TileSweepProgress& progress) {
    if (!sweeping_) return;
    progress_->setValue(
        static_cast<int>(std::lround(std::clamp(progress.fraction, 0.0, 1.0) * 1000)));
    const QString eta = etaText(progress.etaSeconds);
    status_->setText(eta.isEmpty() ? progress.stage
                                   : QStringLiteral("%1 · %2").arg(progress.stage, eta));
}

void TileExplorerTab::onCell(const tiles::TileCell& cell, int index) {
    if (!sweeping_ || index < 0 || index >= static_cast<int>(sweep_.cells.size())) return;
    sweep_.cells[static_cast<std::size_t>(index)] = cell;
    model::describeCells(sweep_);
    refreshViews();
}

void TileExplorerTab::onSweepFinished(const tiles::TileSweep& sweep, bool cancelled) {
    if (!sweeping_) return;
    int measured = 0;
    for (const tiles::TileCell& cell : sweep.cells) measured += cell.measured ? 1 : 0;
    const int total = static_cast<int>(sweep_.cells.size());
    // A cancelled sweep keeps the grid it was asked for, with the cells it reached.
    if (cancelled) {
        for (std::size_t index = 0; index < sweep.cells.size() && index < sweep_.cells.size();
             ++index)
            sweep_.cells[index] = sweep.cells[index];
        sweep_.references = sweep.references;
        sweep_.limits = sweep.limits;
        sweep_.deviceName = sweep.deviceName;
        sweep_.cancelled = true;
        model::describeCells(sweep_);
    } else {
        sweep_ = sweep;
    }
    refreshViews();
    const double seconds = sweepClock_.elapsed() / 1000.0;
    endSweep(!cancelled,
             cancelled ? tr("Cancelled after %1 of %2 configurations").arg(measured).arg(total)
                       : tr("Swept %1 configurations (%2 measured) in %3 s, compiling %4 s")
                             .arg(total)
                             .arg(measured)
                             .arg(seconds, 0, 'f', 1)
                             .arg(sweep.compileWallMs / 1000.0, 0, 'f', 1));
}

void TileExplorerTab::endSweep(bool ok, const QString& message) {
    sweeping_ = false;
    progress_->setValue(ok ? 1000 : progress_->value());
    status_->setText(message);
    updateEnabled();
    emit sweepEnded(ok, message);
}

void TileExplorerTab::fillAxisChoices() {
    // The sweep's first two varied parameters on the axes (the first one down the side).
    std::vector<std::string> varied;
    for (const tiles::TileAxis& axis : sweep_.request.axes)
        if (axis.values.size() > 1) varied.push_back(axis.tuning);
    const QSignalBlocker blockX(xAxis_);
    const QSignalBlocker blockY(yAxis_);
    if (!varied.empty()) yAxis_->setCurrentIndex(std::max(0, yAxis_->findData(qs(varied[0]))));
    if (varied.size() > 1) xAxis_->setCurrentIndex(std::max(0, xAxis_->findData(qs(varied[1]))));
    if (varied.size() == 1 && xAxis_->currentIndex() == yAxis_->currentIndex())
        xAxis_->setCurrentIndex((yAxis_->currentIndex() + 1) % xAxis_->count());
    const QSignalBlocker blockFollow(follow_);
    if (!varied.empty())
        follow_->setCurrentIndex(std::max(0, follow_->findData(qs(varied.back()))));
}

void TileExplorerTab::refreshViews() {
    TileHeatmapChoice choice;
    choice.xTuning = xAxis_->currentData().toString().toStdString();
    choice.yTuning = yAxis_->currentData().toString().toStdString();
    choice.metric = static_cast<TileMetric>(metric_->currentData().toInt());
    choice.bestOfOthers = others_->currentData().toBool();
    for (const auto& [name, value] : selectedTiles()) choice.fixed[name] = value;
    const QString source = sweepSource_.isEmpty() ? QString() : sweepSource_;
    if (sweep_.cells.empty()) {
        TileHeatmapData empty;
        empty.emptyMessage = liveAvailable()
                                 ? tr("No tile sweep yet: choose ranges and press Sweep, or open a "
                                      "recorded one (File > Open).")
                                 : tr("No tile sweep yet. Live sweeps need an NVIDIA GPU: open a "
                                      "recorded one with File > Open.");
        heatmap_->setData(empty);
        TileRooflineData emptyRoof;
        emptyRoof.emptyMessage = empty.emptyMessage;
        roofline_->setData(emptyRoof);
        return;
    }
    heatmap_->setData(heatmapData(sweep_, choice, source));
    roofline_->setData(rooflineData(sweep_, follow_->currentData().toString().toStdString(),
                                    choice.fixed, source));
}

}  // namespace fusescope

#include "ui/explorer/tile_explorer_tab.h"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "model/format.h"
#include "model/tile_sweep_json.h"
#include "pipelines/registry.h"
#include "tiles/tile_model.h"
#include "ui/explorer/tile_heatmap.h"
#include "ui/explorer/tile_roofline.h"
#include "worker/run_controller.h"

namespace fusescope {
namespace {

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

constexpr int kDefaultRepeats = 20;

QComboBox* valueCombo(const TuningSpec& tuning, QWidget* parent) {
    auto* combo = new QComboBox(parent);
    for (int value : tuning.allowed) combo->addItem(QString::number(value), value);
    combo->setToolTip(qs(tuning.help));
    return combo;
}

void selectValue(QComboBox* combo, int value) {
    const int index = combo->findData(value);
    if (index >= 0) combo->setCurrentIndex(index);
}

// Text that wraps in the narrow control column and can be selected for a slide or a report.
QLabel* wrappingLabel(QWidget* parent, const QString& name) {
    auto* label = new QLabel(parent);
    label->setObjectName(name);
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);  // names and paths from files, never HTML
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

QString etaText(double seconds) {
    if (seconds < 0) return QString();
    if (seconds < 90) return QObject::tr("about %1 s left").arg(std::lround(seconds));
    return QObject::tr("about %1 min left").arg(std::lround(seconds / 60.0));
}

}  // namespace

TileExplorerTab::TileExplorerTab(RunController* controller, QWidget* parent)
    : QWidget(parent), controller_(controller) {
    // The first variant the registry declares tunable at run time is what the tab explores.
    for (const PipelineSpec& spec : pipelines())
        for (const VariantSpec& variant : spec.variants)
            if (variant.tunableAtRunTime && pipelineName_.empty()) {
                pipelineName_ = spec.name;
                variantName_ = variant.name;
            }

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->setObjectName(QStringLiteral("explorerSplitter"));
    auto* controlsScroll = new QScrollArea(splitter);
    controlsScroll->setObjectName(QStringLiteral("explorerControlsScroll"));
    controlsScroll->setWidgetResizable(true);
    controlsScroll->setFrameShape(QFrame::NoFrame);
    controlsScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    QWidget* controls = buildControls();
    controlsScroll->setWidget(controls);
    controlsScroll_ = controlsScroll;
    fitControlsWidth();
    splitter->addWidget(controlsScroll);
    splitter->addWidget(buildViews());
    splitter->setStretchFactor(1, 1);
    splitter->setCollapsible(1, false);
    splitter->setSizes({300, 900});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);

    if (controller_) {
        connect(controller_, &RunController::busyChanged, this, &TileExplorerTab::updateEnabled);
        connect(controller_, &RunController::tileReportReady, this, &TileExplorerTab::onReport);
        connect(controller_, &RunController::tileReportFailed, this,
                [this](const QString& message) {
                    reportSource_->setText(tr("The worker could not report: %1").arg(message));
                });
        connect(controller_, &RunController::tileRunFinished, this,
                &TileExplorerTab::onRunFinished);
        connect(controller_, &RunController::tileRunFailed, this, [this](const QString& message) {
            runningOne_ = false;
            result_->setText(tr("The run failed: %1").arg(message));
            updateEnabled();
        });
        connect(controller_, &RunController::tileSweepStarted, this,
                &TileExplorerTab::onSweepStarted);
        connect(controller_, &RunController::tileSweepProgress, this,
                &TileExplorerTab::onSweepProgress);
        connect(controller_, &RunController::tileCellMeasured, this, &TileExplorerTab::onCell);
        connect(controller_, &RunController::tileSweepFinished, this,
                [this](const tiles::TileSweep& sweep) { onSweepFinished(sweep, false); });
        connect(controller_, &RunController::tileSweepCancelled, this,
                [this](const tiles::TileSweep& partial) { onSweepFinished(partial, true); });
        connect(controller_, &RunController::tileSweepFailed, this,
                [this](const QString& message) { endSweep(false, tr("Failed: %1").arg(message)); });
        connect(controller_, &RunController::progress, this,
                [this](double fraction, const QString& stage) {
                    if (runningOne_)
                        result_->setText(
                            tr("Running: %1 (%2%)").arg(stage).arg(std::lround(fraction * 100)));
                });
        // A plain cancel (of a run of one configuration) answers with the runs' cancelled().
        connect(controller_, &RunController::cancelled, this, [this] {
            if (!runningOne_) return;
            runningOne_ = false;
            result_->setText(tr("Cancelled"));
            updateEnabled();
        });
    }
    setBackendSummary(summary_);
    selectionChanged();
}

void TileExplorerTab::setSettings(QSettings* settings) {
    settings_ = settings;
    if (!settings_) return;
    restoreChoices();
    const auto save = [this] { saveChoices(); };
    for (QComboBox* combo : findChildren<QComboBox*>())
        connect(combo, &QComboBox::currentIndexChanged, this, save);
    for (QSpinBox* spin : findChildren<QSpinBox*>())
        connect(spin, &QSpinBox::valueChanged, this, save);
}

// Every combo by its data (a preset's name, a tile's value), every spin box by its value, keyed
// by object name: a choice the program no longer offers is left at its default.
void TileExplorerTab::saveChoices() const {
    if (!settings_) return;
    settings_->beginGroup(QStringLiteral("explorer"));
    for (const QComboBox* combo : findChildren<QComboBox*>())
        if (!combo->objectName().isEmpty())
            settings_->setValue(combo->objectName(), combo->currentData());
    for (const QSpinBox* spin : findChildren<QSpinBox*>())
        if (!spin->objectName().isEmpty()) settings_->setValue(spin->objectName(), spin->value());
    settings_->endGroup();
}

void TileExplorerTab::restoreChoices() {
    settings_->beginGroup(QStringLiteral("explorer"));
    {
        std::vector<std::unique_ptr<QSignalBlocker>> blocks;
        for (QSpinBox* spin : findChildren<QSpinBox*>()) {
            const QVariant value = settings_->value(spin->objectName());
            if (!value.isValid()) continue;
            blocks.push_back(std::make_unique<QSignalBlocker>(spin));
            spin->setValue(value.toInt());
        }
        for (QComboBox* combo : findChildren<QComboBox*>()) {
            // The preset follows the dimensions (fillPresets); the GPU's list may change.
            if (combo == preset_) continue;
            const QVariant value = settings_->value(combo->objectName());
            if (!value.isValid()) continue;
            const int index = combo->findData(value);
            if (index < 0) continue;
            blocks.push_back(std::make_unique<QSignalBlocker>(combo));
            combo->setCurrentIndex(index);
        }
    }
    settings_->endGroup();
    applyVariant();
    fillPresets();
    updateSweepSize();
    selectionChanged();
    refreshViews();
}

// The controls scroll up and down, never sideways: their column is as wide as their least width
// plus the scroll bar.
void TileExplorerTab::fitControlsWidth() {
    if (!controlsScroll_ || !controlsScroll_->widget()) return;
    controlsScroll_->setMinimumWidth(controlsScroll_->widget()->minimumSizeHint().width() +
                                     style()->pixelMetric(QStyle::PM_ScrollBarExtent) + 4);
}

void TileExplorerTab::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    // The presentation zoom or the theme changed the controls' least width.
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange)
        fitControlsWidth();
}

const PipelineSpec* TileExplorerTab::pipeline() const {
    return findPipeline(pipelineName_);
}

QWidget* TileExplorerTab::buildControls() {
    auto* column = new QWidget;
    column->setObjectName(QStringLiteral("explorerControls"));
    auto* layout = new QVBoxLayout(column);
    gpuNote_ = wrappingLabel(column, QStringLiteral("explorerGpuNote"));
    layout->addWidget(gpuNote_);
    const PipelineSpec* spec = pipeline();

    auto* problemBox = new QGroupBox(tr("Problem"), column);
    auto* problemForm = new QFormLayout(problemBox);
    problemForm->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    preset_ = new QComboBox(problemBox);
    preset_->setObjectName(QStringLiteral("explorerPreset"));
    preset_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    preset_->setMinimumContentsLength(12);
    kernel_ = new QComboBox(problemBox);
    kernel_->setObjectName(QStringLiteral("explorerKernel"));
    kernel_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    kernel_->setMinimumContentsLength(12);
    kernel_->setToolTip(
        tr("The fused kernel whose tiles are explored: each compiles at run time for the "
           "values its declaration allows."));
    if (spec)
        for (const VariantSpec& variant : spec->variants)
            if (variant.tunableAtRunTime) kernel_->addItem(qs(variant.title), qs(variant.name));
    problemForm->addRow(tr("Kernel"), kernel_);
    problemForm->addRow(tr("Shape"), preset_);
    if (spec)
        for (const DimensionSpec& dimension : spec->dimensions) {
            auto* spin = new QSpinBox(problemBox);
            spin->setObjectName(QStringLiteral("explorerDimension_%1").arg(qs(dimension.name)));
            spin->setRange(static_cast<int>(dimension.minimum),
                           static_cast<int>(std::min<std::uint64_t>(dimension.maximum, 1 << 30)));
            spin->setValue(static_cast<int>(dimension.defaultValue));
            spin->setToolTip(qs(dimension.title));
            spin->setGroupSeparatorShown(true);
            dimensions_[dimension.name] = spin;
            problemForm->addRow(qs(dimension.name), spin);
            connect(spin, &QSpinBox::valueChanged, this, [this] {
                // Typed dimensions no longer match a preset.
                const PipelineSpec* pipelineSpec = pipeline();
                const int index = preset_->currentIndex();
                const QString key = preset_->itemData(index).toString();
                const PresetSpec* chosen =
                    pipelineSpec ? pipelineSpec->findPreset(key.toStdString()) : nullptr;
                bool matches = chosen != nullptr;
                if (chosen)
                    for (const auto& [name, value] : chosen->dimensions)
                        if (dimensions_.count(name) &&
                            static_cast<std::uint64_t>(dimensions_[name]->value()) != value)
                            matches = false;
                if (!matches) {
                    const QSignalBlocker block(preset_);
                    preset_->setCurrentIndex(preset_->count() - 1);
                }
                selectionChanged();
            });
        }
    dtype_ = new QComboBox(problemBox);
    dtype_->setObjectName(QStringLiteral("explorerDtype"));
    if (spec)
        for (DType dtype : spec->dtypes)
            dtype_->addItem(qs(std::string(dtypeTitle(dtype))), static_cast<int>(dtype));
    problemForm->addRow(tr("dtype"), dtype_);
    gpu_ = new QComboBox(problemBox);
    gpu_->setObjectName(QStringLiteral("explorerGpu"));
    gpu_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    gpu_->setMinimumContentsLength(12);
    gpu_->setToolTip(
        tr("The GPU the model's numbers (grid against SMs, predicted time) are "
           "for. Live reports use this machine's GPU."));
    for (const std::string& key : tiles::knownGpuKeys()) {
        const std::optional<tiles::DeviceLimits> limits =
            tiles::knownGpuLimits(key, DType::Bfloat16);
        gpu_->addItem(limits ? qs(limits->name) : qs(key), qs(key));
    }
    problemForm->addRow(tr("Model for"), gpu_);
    layout->addWidget(problemBox);
    fillPresets();

    auto* tilesBox = new QGroupBox(tr("Tiles"), column);
    auto* tilesForm = new QFormLayout(tilesBox);
    tilesForm_ = tilesForm;
    if (spec)
        for (const TuningSpec& tuning : spec->tunings) {
            QComboBox* combo = valueCombo(tuning, tilesBox);
            combo->setObjectName(QStringLiteral("explorerTile_%1").arg(qs(tuning.name)));
            selectValue(combo, tuning.defaultValue);
            tiles_.emplace_back(tuning.name, combo);
            tilesForm->addRow(qs(tuning.title), combo);
            connect(combo, &QComboBox::currentIndexChanged, this,
                    &TileExplorerTab::selectionChanged);
        }
    layout->addWidget(tilesBox);

    auto* reportBox = new QGroupBox(tr("Resource report"), column);
    auto* reportLayout = new QVBoxLayout(reportBox);
    refusal_ = wrappingLabel(reportBox, QStringLiteral("explorerRefusal"));
    QFont bold = refusal_->font();
    bold.setBold(true);
    refusal_->setFont(bold);
    report_ = wrappingLabel(reportBox, QStringLiteral("explorerReport"));
    reportSource_ = wrappingLabel(reportBox, QStringLiteral("explorerReportSource"));
    reportLayout->addWidget(refusal_);
    reportLayout->addWidget(report_);
    reportLayout->addWidget(reportSource_);
    layout->addWidget(reportBox);

    run_ = new QPushButton(tr("Run this configuration"), column);
    run_->setObjectName(QStringLiteral("explorerRun"));
    connect(run_, &QPushButton::clicked, this, &TileExplorerTab::runConfiguration);
    layout->addWidget(run_);
    result_ = wrappingLabel(column, QStringLiteral("explorerResult"));
    layout->addWidget(result_);

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
    connect(save_, &QPushButton::clicked, this, [this] {
        const QString path =
            QFileDialog::getSaveFileName(this, tr("Save tile sweep"), QStringLiteral("tiles.json"),
                                         tr("FuseScope tile sweeps (*.json)"));
        if (path.isEmpty()) return;
        const QString error = saveTileSweepFile(path);
        status_->setText(error.isEmpty() ? tr("Saved %1").arg(QDir::toNativeSeparators(path))
                                         : error);
    });
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
    layout->addWidget(sweepBox);
    layout->addStretch(1);

    connect(kernel_, &QComboBox::currentIndexChanged, this, [this] {
        applyVariant();
        selectionChanged();
    });
    connect(preset_, &QComboBox::currentIndexChanged, this, &TileExplorerTab::applyPreset);
    connect(dtype_, &QComboBox::currentIndexChanged, this, &TileExplorerTab::selectionChanged);
    connect(gpu_, &QComboBox::currentIndexChanged, this, &TileExplorerTab::selectionChanged);
    updateSweepSize();
    return column;
}

QWidget* TileExplorerTab::buildViews() {
    views_ = new QTabWidget;
    views_->setObjectName(QStringLiteral("explorerViews"));
    views_->setDocumentMode(true);

    auto* heatPage = new QWidget(views_);
    auto* heatLayout = new QVBoxLayout(heatPage);
    heatLayout->setContentsMargins(0, 4, 0, 0);
    auto* choices = new QWidget(heatPage);
    auto* choiceLayout = new QVBoxLayout(choices);
    choiceLayout->setContentsMargins(4, 0, 4, 0);
    const auto shrinkingCombo = [](QWidget* parent, const QString& name) {
        auto* combo = new QComboBox(parent);
        combo->setObjectName(name);
        combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        combo->setMinimumContentsLength(7);
        return combo;
    };
    metric_ = shrinkingCombo(choices, QStringLiteral("explorerMetric"));
    for (TileMetric metric : kAllTileMetrics)
        metric_->addItem(tileMetricTitle(metric), static_cast<int>(metric));
    xAxis_ = shrinkingCombo(choices, QStringLiteral("explorerXAxis"));
    yAxis_ = shrinkingCombo(choices, QStringLiteral("explorerYAxis"));
    others_ = shrinkingCombo(choices, QStringLiteral("explorerOthers"));
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
    heatLayout->addWidget(choices);
    heatmap_ = new TileHeatmap(heatPage);
    heatLayout->addWidget(heatmap_, 1);
    views_->addTab(heatPage, tr("Heatmap"));

    auto* roofPage = new QWidget(views_);
    auto* roofLayout = new QVBoxLayout(roofPage);
    roofLayout->setContentsMargins(0, 4, 0, 0);
    auto* followRow = new QWidget(roofPage);
    auto* followLayout = new QHBoxLayout(followRow);
    followLayout->setContentsMargins(4, 0, 4, 0);
    follow_ = shrinkingCombo(followRow, QStringLiteral("explorerFollow"));
    follow_->setToolTip(
        tr("The arrows follow this parameter through its values, the others as "
           "selected under Tiles."));
    followLayout->addWidget(new QLabel(tr("Follow"), followRow));
    followLayout->addWidget(follow_, 1);
    followLayout->addStretch(2);
    roofLayout->addWidget(followRow);
    roofline_ = new TileRoofline(roofPage);
    roofLayout->addWidget(roofline_, 1);
    views_->addTab(roofPage, tr("Roofline"));

    applyVariant();
    for (QComboBox* combo : {metric_, xAxis_, yAxis_, others_, follow_})
        connect(combo, &QComboBox::currentIndexChanged, this, &TileExplorerTab::refreshViews);
    connect(heatmap_, &TileHeatmap::cellClicked, this, [this](int index) {
        if (index < 0 || index >= static_cast<int>(sweep_.cells.size())) return;
        const tiles::TileCell& cell = sweep_.cells[static_cast<std::size_t>(index)];
        setConfiguration(cell.report.configuration);
        const model::Recording recording = recordingOfCell(sweep_, index);
        if (recording.runs.isEmpty()) {
            status_->setText(tr("That configuration was not measured: nothing to load."));
            return;
        }
        status_->setText(tr("Loaded %1 into the results, the charts and the memory stage.")
                             .arg(qs(tiles::tilesText(cell.report.configuration))));
        emit recordingChosen(recording);
    });
    return views_;
}

void TileExplorerTab::fillPresets() {
    const QSignalBlocker block(preset_);
    preset_->clear();
    if (const PipelineSpec* spec = pipeline())
        for (const PresetSpec& preset : spec->presets)
            preset_->addItem(qs(preset.title), qs(preset.name));
    preset_->addItem(tr("custom"), QString());
    // The defaults match no preset until one is chosen.
    preset_->setCurrentIndex(preset_->count() - 1);
    if (const PipelineSpec* spec = pipeline())
        for (int index = 0; index < static_cast<int>(spec->presets.size()); ++index) {
            bool matches = true;
            for (const auto& [name, value] :
                 spec->presets[static_cast<std::size_t>(index)].dimensions)
                if (dimensions_.count(name) &&
                    static_cast<std::uint64_t>(dimensions_.at(name)->value()) != value)
                    matches = false;
            if (matches) {
                preset_->setCurrentIndex(index);
                break;
            }
        }
}

void TileExplorerTab::applyPreset() {
    const PipelineSpec* spec = pipeline();
    const PresetSpec* preset =
        spec ? spec->findPreset(preset_->currentData().toString().toStdString()) : nullptr;
    if (!preset) return;
    for (const auto& [name, value] : preset->dimensions)
        if (dimensions_.count(name)) {
            const QSignalBlocker block(dimensions_[name]);
            dimensions_[name]->setValue(static_cast<int>(value));
        }
    if (preset->dtype) {
        const QSignalBlocker block(dtype_);
        dtype_->setCurrentIndex(std::max(0, dtype_->findData(static_cast<int>(*preset->dtype))));
    }
    selectionChanged();
}

QComboBox* TileExplorerTab::tileCombo(const std::string& tuning) const {
    for (const auto& [name, combo] : tiles_)
        if (name == tuning) return combo;
    return nullptr;
}

QComboBox* TileExplorerTab::rangeFromCombo(const std::string& tuning) const {
    for (const auto& [name, range] : ranges_)
        if (name == tuning) return range.first;
    return nullptr;
}

QComboBox* TileExplorerTab::rangeToCombo(const std::string& tuning) const {
    for (const auto& [name, range] : ranges_)
        if (name == tuning) return range.second;
    return nullptr;
}

std::map<std::string, int> TileExplorerTab::selectedTiles() const {
    std::map<std::string, int> values;
    for (const auto& [name, combo] : tiles_) values[name] = combo->currentData().toInt();
    return values;
}

tiles::TileConfiguration TileExplorerTab::configuration() const {
    tiles::TileConfiguration configuration;
    configuration.pipeline = pipelineName_;
    configuration.variant = variantName_;
    for (const auto& [name, spin] : dimensions_)
        configuration.problem.dimensions[name] = static_cast<std::uint64_t>(spin->value());
    configuration.problem.dtype = static_cast<DType>(dtype_->currentData().toInt());
    for (const auto& [name, value] : selectedTiles()) configuration.problem.tuning[name] = value;
    return configuration;
}

void TileExplorerTab::setConfiguration(const tiles::TileConfiguration& configuration) {
    {
        std::vector<std::unique_ptr<QSignalBlocker>> blocks;
        for (const auto& [name, spin] : dimensions_) {
            blocks.push_back(std::make_unique<QSignalBlocker>(spin));
            if (const std::uint64_t value = configuration.problem.dimension(name); value > 0)
                spin->setValue(static_cast<int>(value));
        }
        if (const int kernel = kernel_->findData(qs(configuration.variant));
            kernel >= 0 && kernel != kernel_->currentIndex()) {
            blocks.push_back(std::make_unique<QSignalBlocker>(kernel_));
            kernel_->setCurrentIndex(kernel);
            applyVariant();
        }
        blocks.push_back(std::make_unique<QSignalBlocker>(dtype_));
        dtype_->setCurrentIndex(
            std::max(0, dtype_->findData(static_cast<int>(configuration.problem.dtype))));
        for (const auto& [name, combo] : tiles_) {
            blocks.push_back(std::make_unique<QSignalBlocker>(combo));
            selectValue(combo, configuration.problem.tuningValue(name));
        }
    }
    fillPresets();
    selectionChanged();
}

tiles::TileSweepRequest TileExplorerTab::sweepRequest() const {
    tiles::TileSweepRequest request;
    request.base = configuration();
    request.repeats = repeats_->value();
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

std::optional<tiles::DeviceLimits> TileExplorerTab::modelLimits() const {
    return tiles::knownGpuLimits(gpu_->currentData().toString().toStdString(),
                                 static_cast<DType>(dtype_->currentData().toInt()));
}

bool TileExplorerTab::liveAvailable() const {
    return (summary_.cudaBuilt && summary_.cudaUsable) || workerLive_;
}

void TileExplorerTab::setBackend(BackendChoice backend) {
    backend_ = backend;
    setBackendSummary(summary_);
}

void TileExplorerTab::setBackendSummary(const BackendSummary& summary) {
    summary_ = summary;
    backendsKnown_ =
        !summary.cpuName.isEmpty() || summary.cudaBuilt || !summary.cudaReason.isEmpty();
    if (!backendsKnown_ && !workerLive_)
        gpuNote_->setText(tr("Looking for a GPU…"));
    else if (liveAvailable())
        gpuNote_->setText(summary_.cudaDeviceName.isEmpty()
                              ? tr("Live exploration on this machine's GPU.")
                              : tr("Live exploration on %1.").arg(summary_.cudaDeviceName));
    else if (backend_ == BackendChoice::Cpu)
        gpuNote_->setText(
            tr("Live exploration needs an NVIDIA GPU. With the CPU backend chosen in "
               "the run panel, Run and Sweep time the lesson kernel's CPU port: "
               "registers, occupancy and the GPU's limits do not apply to those "
               "times. The model's numbers are for the GPU chosen under Problem."));
    else
        gpuNote_->setText(
            tr("Live exploration needs an NVIDIA GPU, and none is usable here. The model's "
               "numbers below (bytes, FLOPs, grid against SMs) are for the GPU chosen under "
               "Problem; recorded tile sweeps open with File > Open."));
    // The driver's own words once, on demand: the start page says it in plain words.
    gpuNote_->setToolTip(liveAvailable() || summary.cudaReason.isEmpty()
                             ? QString()
                             : tr("Why: %1").arg(summary.cudaReason));
    updateEnabled();
    selectionChanged();
}

bool TileExplorerTab::canMeasure() const {
    return liveAvailable() || backend_ == BackendChoice::Cpu;
}

void TileExplorerTab::updateEnabled() {
    const bool busy = sweeping_ || runningOne_;
    const bool live = canMeasure();
    const QString noGpu = tr("Needs an NVIDIA GPU: open a recorded tile sweep instead.");
    const QString other = controller_ && controller_->isRunning() && !busy
                              ? tr("Another run or sweep is in progress.")
                              : QString();
    // Another job holds the worker (a run of the run panel, a size sweep): Run and Sweep wait.
    run_->setEnabled(live && !busy && other.isEmpty());
    run_->setToolTip(!live              ? noGpu
                     : !other.isEmpty() ? other
                                        : tr("Compile (or take from the cache) and time this "
                                             "configuration."));
    const QString invalid = sweepValidationMessage();
    sweepButton_->setEnabled(live && !busy && other.isEmpty() && invalid.isEmpty());
    sweepButton_->setToolTip(!live ? noGpu : !invalid.isEmpty() ? invalid : other);
    cancel_->setEnabled(busy);
    save_->setEnabled(!sweeping_ && hasSweep());
}

void TileExplorerTab::selectionChanged() {
    showModelReport();
    // Many changes in one turn of the event loop (a preset sets three dimensions) ask once.
    if (reportQueued_) return;
    reportQueued_ = true;
    QTimer::singleShot(0, this, &TileExplorerTab::requestReport);
}

void TileExplorerTab::requestReport() {
    reportQueued_ = false;
    if (!controller_) return;
    TileReportCommand command;
    command.configuration = configuration();
    command.gpuKey = gpu_->currentData().toString();
    ++reportRequests_;
    controller_->requestTileReport(command);
}

// The model's report needs no GPU and no worker: it is shown at once, and replaced by the
// compiled kernel's report when the worker answers for the same selection.
void TileExplorerTab::showModelReport() {
    const std::optional<tiles::DeviceLimits> limits = modelLimits();
    if (!limits) {
        report_->setText(tr("No limits known for the chosen GPU."));
        return;
    }
    showReport(
        tiles::modelReport(configuration(), *limits),
        liveAvailable()
            ? tr("The model's numbers for %1; the compiled kernel's follow.").arg(qs(limits->name))
            : tr("The model's numbers for %1 (spec-sheet roofs).").arg(qs(limits->name)));
}

void TileExplorerTab::showReport(const tiles::ResourceReport& report, const QString& note) {
    shownReport_ = report;
    if (report.refusal) {
        refusal_->setText(tr("Refused, never launched: %1").arg(qs(report.refusal->reason)));
        refusal_->setVisible(true);
    } else {
        refusal_->clear();
        refusal_->setVisible(false);
    }
    report_->setText(reportLines(report).join(QLatin1Char('\n')));
    reportSource_->setText(note);
}

void TileExplorerTab::onReport(const TileReportOutcome& outcome) {
    if (outcome.live && !workerLive_) {
        workerLive_ = true;
        setBackendSummary(summary_);
    }
    // An answer for a selection the user has already left is not shown.
    if (!(outcome.report.configuration == configuration())) return;
    showReport(outcome.report, outcome.note);
}

void TileExplorerTab::runConfiguration() {
    if (!controller_ || sweeping_ || runningOne_) return;
    if (controller_->isRunning()) {
        result_->setText(tr("Another run or sweep is in progress: wait for it or cancel it."));
        return;
    }
    if (shownReport_ && shownReport_->refusal) {
        result_->setText(tr("Not run: %1").arg(qs(shownReport_->refusal->reason)));
        return;
    }
    TileRunCommand command;
    command.configuration = configuration();
    command.repeats = repeats_->value();
    command.backend = backend_;
    runningOne_ = true;
    result_->setText(tr("Running %1…").arg(qs(tiles::tilesText(command.configuration))));
    updateEnabled();
    controller_->submitTileRun(command);
}

void TileExplorerTab::onRunFinished(const TileRunOutcome& outcome) {
    runningOne_ = false;
    updateEnabled();
    const tiles::TileCell& cell = outcome.cell;
    if (cell.report.refusal) {
        result_->setText(tr("Refused: %1").arg(qs(cell.report.refusal->reason)));
        return;
    }
    if (!cell.measured) {
        result_->setText(tr("Not measured: %1").arg(qs(cell.error)));
        return;
    }
    QStringList lines;
    lines << tr("%1 ms median (interquartile %2–%3)")
                 .arg(model::formatMilliseconds(cell.time.medianMs),
                      model::formatMilliseconds(cell.time.q1Ms),
                      model::formatMilliseconds(cell.time.q3Ms));
    lines
        << tr("%1 GB/s · %2 TFLOP/s").arg(model::formatGBps(cell.gbps)).arg(cell.tflops, 0, 'f', 1);
    lines << (cell.dramBytes ? tr("DRAM %1 against %2 requested")
                                   .arg(model::formatBytes(static_cast<quint64>(*cell.dramBytes)),
                                        model::formatBytes(cell.requestedBytes))
                             : tr("requested %1; DRAM not measured")
                                   .arg(model::formatBytes(cell.requestedBytes)));
    lines << (cell.checkOk ? tr("check ok (error %1)") : tr("check FAILED (error %1)"))
                 .arg(model::formatRelativeError(cell.checkError));
    result_->setText(lines.join(QLatin1Char('\n')));
    if (!outcome.recording.runs.isEmpty()) emit recordingChosen(outcome.recording);
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
    command.backend = backend_;
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
    tiles::describeCells(sweep_);
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
        tiles::describeCells(sweep_);
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

bool TileExplorerTab::exploresTuning(const std::string& tuning) const {
    const PipelineSpec* spec = pipeline();
    const TuningSpec* declared = spec ? spec->findTuning(tuning) : nullptr;
    return declared && declared->appliesTo(variantName_);
}

void TileExplorerTab::applyVariant() {
    if (kernel_ && kernel_->count() > 0)
        variantName_ = kernel_->currentData().toString().toStdString();
    for (const auto& [name, combo] : tiles_)
        if (tilesForm_) tilesForm_->setRowVisible(combo, exploresTuning(name));
    for (const auto& [name, row] : rangeRows_)
        if (sweepForm_) sweepForm_->setRowVisible(row, exploresTuning(name));
    if (xAxis_ && yAxis_ && follow_) {
        const QSignalBlocker blockX(xAxis_);
        const QSignalBlocker blockY(yAxis_);
        const QSignalBlocker blockFollow(follow_);
        for (QComboBox* combo : {xAxis_, yAxis_, follow_}) combo->clear();
        if (const PipelineSpec* spec = pipeline())
            for (const TuningSpec& tuning : spec->tunings)
                if (tuning.appliesTo(variantName_))
                    for (QComboBox* combo : {xAxis_, yAxis_, follow_})
                        combo->addItem(qs(tuning.title), qs(tuning.name));
        if (yAxis_->count() > 1) yAxis_->setCurrentIndex(0);
        if (xAxis_->count() > 1) xAxis_->setCurrentIndex(1);
    }
    if (sweepSize_) updateSweepSize();
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
    status_->setText(tr("Showing the recorded sweep %1 (%2 configurations).")
                         .arg(QDir::toNativeSeparators(path))
                         .arg(loaded->cells.size()));
    return {};
}

QString TileExplorerTab::saveTileSweepFile(const QString& path) const {
    if (sweep_.cells.empty()) return tr("There is no tile sweep to save yet.");
    if (sweeping_) return tr("The sweep is still running.");
    const Status saved = model::saveTileSweep(sweep_, path);
    return saved ? QString() : qs(saved.message());
}

}  // namespace fusescope

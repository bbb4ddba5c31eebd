// The tab's controls: the problem (kernel, shape, dimensions, dtype, the GPU the model is for),
// the tile selectors, and the configuration they describe.
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>
#include <memory>

#include "model/tile_choices.h"
#include "ui/explorer/tile_explorer_tab.h"
#include "ui/explorer/tile_explorer_widgets.h"
#include "ui/widgets/shrinking_combo.h"

namespace fusescope {
namespace {

// The kernel selector's items hold the variant's name and, in this role, its pipeline's.
constexpr int kPipelineRole = Qt::UserRole + 1;

}  // namespace

using explorer::qs;
using explorer::selectValue;
using explorer::valueCombo;
using explorer::wrappingLabel;

QWidget* TileExplorerTab::buildControls() {
    auto* column = new QWidget;
    column->setObjectName(QStringLiteral("explorerControls"));
    auto* layout = new QVBoxLayout(column);
    gpuNote_ = wrappingLabel(column, QStringLiteral("explorerGpuNote"));
    layout->addWidget(gpuNote_);

    layout->addWidget(buildProblemBox(column));
    fillPresets();
    layout->addWidget(buildTilesBox(column));
    addReportControls(column, layout);
    layout->addWidget(buildSweepBox(column));
    layout->addStretch(1);

    connect(kernel_, &QComboBox::currentIndexChanged, this, [this] {
        const std::string chosen = kernel_->currentData(kPipelineRole).toString().toStdString();
        if (chosen != pipelineName_)
            choosePipeline(chosen, kernel_->currentData().toString().toStdString());
        else
            applyVariant();
        selectionChanged();
    });
    connect(preset_, &QComboBox::currentIndexChanged, this, &TileExplorerTab::applyPreset);
    connect(dtype_, &QComboBox::currentIndexChanged, this, &TileExplorerTab::selectionChanged);
    connect(gpu_, &QComboBox::currentIndexChanged, this, &TileExplorerTab::selectionChanged);
    updateSweepSize();
    return column;
}

QGroupBox* TileExplorerTab::buildProblemBox(QWidget* column) {
    const PipelineSpec* spec = pipeline();
    auto* problemBox = new QGroupBox(tr("Problem"), column);
    auto* problemForm = new QFormLayout(problemBox);
    problemForm->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    preset_ = shrinkingCombo(problemBox, QStringLiteral("explorerPreset"), 12);
    kernel_ = shrinkingCombo(problemBox, QStringLiteral("explorerKernel"), 12);
    kernel_->setToolTip(
        tr("The fused kernel whose tiles are explored: each compiles at run time for the "
           "values its declaration allows."));
    // Every kernel the registry declares tunable, whichever pipeline declares it.
    const auto tunable = tunableVariants();
    const bool severalPipelines =
        std::any_of(tunable.begin(), tunable.end(),
                    [&](const auto& entry) { return entry.first != tunable.front().first; });
    for (const auto& [pipelineSpec, variant] : tunable) {
        kernel_->addItem(severalPipelines
                             ? tr("%1 (%2)").arg(qs(variant->title), qs(pipelineSpec->title))
                             : qs(variant->title),
                         qs(variant->name));
        kernel_->setItemData(kernel_->count() - 1, qs(pipelineSpec->name), kPipelineRole);
        if (pipelineSpec->name == pipelineName_ && variant->name == variantName_)
            kernel_->setCurrentIndex(kernel_->count() - 1);
    }
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
    gpu_ = shrinkingCombo(problemBox, QStringLiteral("explorerGpu"), 12);
    gpu_->setToolTip(
        tr("The GPU the model's numbers (grid against SMs, predicted time) are "
           "for. Live reports use this machine's GPU."));
    for (const model::KnownGpu& gpu : model::knownGpus()) gpu_->addItem(gpu.name, gpu.key);
    problemForm->addRow(tr("Model for"), gpu_);
    return problemBox;
}

QGroupBox* TileExplorerTab::buildTilesBox(QWidget* column) {
    const PipelineSpec* spec = pipeline();
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
    return tilesBox;
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

int TileExplorerTab::kernelIndex(const tiles::TileConfiguration& configuration) const {
    for (int index = 0; index < kernel_->count(); ++index)
        if (kernel_->itemData(index, kPipelineRole).toString() == qs(configuration.pipeline) &&
            kernel_->itemData(index).toString() == qs(configuration.variant))
            return index;
    return -1;
}

void TileExplorerTab::setConfiguration(const tiles::TileConfiguration& configuration) {
    if (configuration.pipeline != pipelineName_ && kernelIndex(configuration) >= 0)
        choosePipeline(configuration.pipeline, configuration.variant);
    {
        std::vector<std::unique_ptr<QSignalBlocker>> blocks;
        for (const auto& [name, spin] : dimensions_) {
            blocks.push_back(std::make_unique<QSignalBlocker>(spin));
            if (const std::uint64_t value = configuration.problem.dimension(name); value > 0)
                spin->setValue(static_cast<int>(value));
        }
        if (const int kernel = kernelIndex(configuration);
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

bool TileExplorerTab::exploresTuning(const std::string& tuning) const {
    const PipelineSpec* spec = pipeline();
    const TuningSpec* declared = spec ? spec->findTuning(tuning) : nullptr;
    return declared && declared->appliesTo(variantName_);
}

void TileExplorerTab::applyVariant() {
    // A kernel of another pipeline (a remembered choice) is not taken here: choosePipeline is.
    if (kernel_ && kernel_->count() > 0) {
        if (kernel_->currentData(kPipelineRole).toString() == qs(pipelineName_)) {
            variantName_ = kernel_->currentData().toString().toStdString();
        } else {
            const QSignalBlocker block(kernel_);
            kernel_->setCurrentIndex(
                std::max(0, kernelIndex({pipelineName_, variantName_, Problem{}})));
        }
    }
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

std::optional<tiles::DeviceLimits> TileExplorerTab::modelLimits() const {
    return model::knownGpuLimits(gpu_->currentData().toString(),
                                 static_cast<DType>(dtype_->currentData().toInt()));
}

}  // namespace fusescope

#include "ui/run/run_panel.h"

#include "ui/run/backend_choice_key.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>

#include "model/element_count.h"
#include "model/format.h"
#include "model/pipeline_catalog.h"
#include "model/pipeline_watcher.h"
#include "model/problem_options.h"
#include "model/run_limits.h"
#include "ui/widgets/shrinking_combo.h"
#include "ui/widgets/wrapped_check_list.h"

namespace fusescope {
namespace {

QString runToolTip() {
    return QObject::tr("Run the selected variants (Ctrl+R)");
}

QString cancelToolTip() {
    return QObject::tr("Stop the run (Esc)");
}

constexpr int kNameRole = Qt::UserRole;

QString text(const std::string& value) {
    return QString::fromStdString(value);
}

QLabel* wrappedLabel(QWidget* parent) {
    auto* label = new QLabel(parent);
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);  // names from recordings, never HTML
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

}  // namespace

RunPanel::RunPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);

    auto* pipelineBox = new QGroupBox(tr("Pipeline"), this);
    auto* pipelineLayout = new QVBoxLayout(pipelineBox);
    pipeline_ = new QComboBox(pipelineBox);
    pipeline_->setObjectName(QStringLiteral("pipelineCombo"));
    listPipelines();
    connect(new model::PipelineWatcher(this), &model::PipelineWatcher::changed, this,
            &RunPanel::refreshPipelines);
    formula_ = wrappedLabel(pipelineBox);
    formula_->setObjectName(QStringLiteral("pipelineFormula"));
    fitFormulaFont();
    description_ = wrappedLabel(pipelineBox);
    description_->setForegroundRole(QPalette::WindowText);
    variants_ = new WrappedCheckList(pipelineBox);
    variants_->setObjectName(QStringLiteral("variantList"));
    variants_->setToolTip(tr("The variants to run and compare, in this order"));
    pipelineLayout->addWidget(pipeline_);
    pipelineLayout->addWidget(formula_);
    pipelineLayout->addWidget(description_);
    pipelineLayout->addWidget(new QLabel(tr("Variants to compare:"), pipelineBox));
    pipelineLayout->addWidget(variants_);
    layout->addWidget(pipelineBox);

    auto* sizeBox = new QGroupBox(tr("Problem"), this);
    auto* form = new QFormLayout(sizeBox);
    // A value wider than the room beside its label goes under the label, whole.
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    elementCount_ = new QLineEdit(sizeBox);
    elementCount_->setObjectName(QStringLiteral("elementCount"));
    elementCount_->setToolTip(
        tr("Elements per array: any N ≥ 1, e.g. 16777216, 16,777,216 or 2^24"));
    presets_ = new QComboBox(sizeBox);
    presets_->setToolTip(tr("Quick sizes"));
    presets_->addItem(tr("Presets"));
    for (int exponent = 16; exponent <= 28; exponent += 2)
        presets_->addItem(QStringLiteral("2^%1 (%2)")
                              .arg(exponent)
                              .arg(model::formatBytes((quint64{1} << exponent) * 4)),
                          QString::number(quint64{1} << exponent));
    // The presets under the field, which keeps the line's whole width for its value.
    form->addRow(tr("N (elements):"), elementCount_);
    form->addRow(QString(), presets_);
    cacheHint_ = wrappedLabel(sizeBox);
    cacheHint_->setObjectName(QStringLiteral("cacheHint"));
    cacheHint_->setForegroundRole(QPalette::WindowText);
    form->addRow(QString(), cacheHint_);
    // Pipelines without N (the MLP) take their dimensions by name, from their declaration.
    shape_ = new QLineEdit(sizeBox);
    shape_->setObjectName(QStringLiteral("shapeEdit"));
    // Named problems are picked from the list; the closed box need not hold the longest name.
    problemPresets_ = shrinkingCombo(sizeBox, QStringLiteral("problemPresets"), 14);
    problemPresets_->setToolTip(tr("The pipeline's named problems"));
    form->addRow(tr("Dimensions:"), shape_);
    form->addRow(QString(), problemPresets_);
    dtype_ = new QComboBox(sizeBox);
    dtype_->setObjectName(QStringLiteral("dtypeCombo"));
    form->addRow(tr("Data type:"), dtype_);
    tuning_ = new QLineEdit(sizeBox);
    tuning_->setObjectName(QStringLiteral("tuningEdit"));
    form->addRow(tr("Tiles:"), tuning_);
    form_ = form;
    vector_ = new QComboBox(sizeBox);
    vector_->setObjectName(QStringLiteral("vectorCombo"));
    for (int width : kSupportedVectorWidths)
        vector_->addItem(model::formatVectorWidth(width), width);
    vector_->setCurrentIndex(vector_->findData(kDefaultVectorWidth));
    form->addRow(tr("Vector width:"), vector_);
    backend_ = new QComboBox(sizeBox);
    backend_->setObjectName(QStringLiteral("backendCombo"));
    backend_->addItem(tr("Auto (CUDA when usable)"), backendChoiceItemKey(BackendChoice::Auto));
    backend_->addItem(tr("CUDA (GPU)"), backendChoiceItemKey(BackendChoice::Cuda));
    backend_->addItem(tr("CPU"), backendChoiceItemKey(BackendChoice::Cpu));
    form->addRow(tr("Backend:"), backend_);
    backendReason_ = wrappedLabel(sizeBox);
    backendReason_->setForegroundRole(QPalette::WindowText);
    form->addRow(QString(), backendReason_);
    // Several GPUs in one host: which one runs. Shown once the worker has listed the GPUs.
    device_ = new QComboBox(sizeBox);
    device_->setObjectName(QStringLiteral("deviceCombo"));
    device_->setToolTip(tr("The GPU the run uses, by its CUDA number"));
    form->addRow(tr("GPU:"), device_);
    connect(device_, &QComboBox::activated, this, [this] { wantedDevice_.reset(); });
    repeats_ = new QSpinBox(sizeBox);
    repeats_->setObjectName(QStringLiteral("repeatsSpin"));
    repeats_->setRange(1, kMaxRepeats);
    repeats_->setValue(runDefaultsFor(BackendKind::Cpu).repeats);
    repeats_->setToolTip(tr("Timed repeats; the median is reported"));
    form->addRow(tr("Repeats:"), repeats_);
    warmup_ = new QSpinBox(sizeBox);
    warmup_->setObjectName(QStringLiteral("warmupSpin"));
    warmup_->setRange(0, kMaxWarmup);
    warmup_->setValue(runDefaultsFor(BackendKind::Cpu).warmup);
    form->addRow(tr("Warm-up:"), warmup_);
    cpuThreads_ = new QSpinBox(sizeBox);
    cpuThreads_->setObjectName(QStringLiteral("cpuThreadsSpin"));
    cpuThreads_->setRange(0, model::hostThreads());
    cpuThreads_->setSpecialValueText(tr("all (%1)").arg(model::hostThreads()));
    form->addRow(tr("CPU threads:"), cpuThreads_);
    measure_ = new QCheckBox(tr("counters + bandwidth"), sizeBox);
    measure_->setChecked(true);
    measure_->setObjectName(QStringLiteral("measureCheck"));
    form->addRow(tr("Measure (GPU):"), measure_);
    sampleInterval_ = new QSpinBox(sizeBox);
    sampleInterval_->setObjectName(QStringLiteral("sampleIntervalSpin"));
    sampleInterval_->setRange(10, 1000);
    sampleInterval_->setValue(20);
    sampleInterval_->setSuffix(tr(" µs"));
    sampleInterval_->setToolTip(
        tr("How often DRAM bandwidth is sampled while measuring (10 µs to 1 ms). The host spends "
           "about 10 µs decoding each sample, so below 20 µs samples can be lost."));
    countedLaunches_ = new QSpinBox(sizeBox);
    countedLaunches_->setObjectName(QStringLiteral("countedLaunchesSpin"));
    countedLaunches_->setRange(1, kMaxCountedLaunches);
    countedLaunches_->setValue(kDefaultCountedLaunches);
    countedLaunches_->setSuffix(tr(" times"));
    countedLaunches_->setToolTip(
        tr("How often the counter run counts each kernel launch (1 to %1). A tiled kernel's DRAM "
           "bytes move from launch to launch with which re-reads the L2 catches: Model vs "
           "measured shows each count's median and, where they moved, the range.")
            .arg(kMaxCountedLaunches));
    connect(measure_, &QCheckBox::toggled, this, [this](bool on) {
        sampleInterval_->setEnabled(on && resolvedBackend() == BackendKind::Cuda);
        countedLaunches_->setEnabled(on && resolvedBackend() == BackendKind::Cuda);
    });
    form->addRow(tr("Sample every:"), sampleInterval_);
    form->addRow(tr("Count each launch:"), countedLaunches_);
    layout->addWidget(sizeBox);

    auto* buttons = new QHBoxLayout;
    run_ = new QPushButton(tr("Run"), this);
    run_->setObjectName(QStringLiteral("runButton"));
    run_->setToolTip(runToolTip());
    run_->setDefault(true);
    cancel_ = new QPushButton(tr("Cancel"), this);
    cancel_->setObjectName(QStringLiteral("cancelButton"));
    cancel_->setToolTip(cancelToolTip());
    cancel_->setEnabled(false);
    buttons->addWidget(run_, 1);
    buttons->addWidget(cancel_);
    layout->addLayout(buttons);
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1000);
    progress_->setValue(0);
    progress_->setTextVisible(false);
    layout->addWidget(progress_);
    stage_ = wrappedLabel(this);
    stage_->setText(tr("Ready"));
    layout->addWidget(stage_);
    status_ = wrappedLabel(this);
    status_->setObjectName(QStringLiteral("runPanelStatus"));
    status_->setForegroundRole(QPalette::WindowText);
    layout->addWidget(status_);
    layout->addStretch(1);

    connect(pipeline_, &QComboBox::currentIndexChanged, this, &RunPanel::showPipeline);
    connect(presets_, &QComboBox::activated, this, [this](int index) {
        if (index > 0) elementCount_->setText(presets_->itemData(index).toString());
        presets_->setCurrentIndex(0);
    });
    connect(problemPresets_, &QComboBox::activated, this, [this](int index) {
        if (index > 0) shape_->setText(problemPresets_->itemData(index).toString());
    });
    connect(shape_, &QLineEdit::textChanged, this, &RunPanel::updateRunEnabled);
    connect(tuning_, &QLineEdit::textChanged, this, &RunPanel::updateRunEnabled);
    connect(elementCount_, &QLineEdit::textChanged, this, [this] {
        updateCacheHint();
        updateRunEnabled();
    });
    connect(backend_, &QComboBox::currentIndexChanged, this, &RunPanel::backendChanged);
    connect(variants_, &QListWidget::itemChanged, this, &RunPanel::updateRunEnabled);
    connect(run_, &QPushButton::clicked, this, &RunPanel::runRequested);
    connect(cancel_, &QPushButton::clicked, this, &RunPanel::cancelRequested);

    elementCount_->setText(QString::number(quint64{1} << 24));
    showPipeline(pipeline_->currentIndex());
    setBackendSummary(summary_);
}

void RunPanel::listPipelines() {
    pipeline_->clear();
    for (const PipelineSpec& spec : pipelines())
        pipeline_->addItem(text(spec.title), text(spec.name));
}

void RunPanel::refreshPipelines() {
    const QString chosen = pipeline_->currentData().toString();
    {
        // Quiet while the chosen pipeline stays chosen: nothing that follows the choice changes.
        const QSignalBlocker quiet(pipeline_);
        listPipelines();
        pipeline_->setCurrentIndex(pipeline_->findData(chosen));
    }
    if (pipeline_->currentIndex() < 0)
        pipeline_->setCurrentIndex(0);  // it went: the first, told to all that follow the choice
    else if (currentPipeline() != shownPipeline_)
        showPipeline(pipeline_->currentIndex());  // replaced: its variants now
}

void RunPanel::fitFormulaFont() {
    // Fixed-width, a little larger than the panel's text, and zoomed with it.
    QFont formulaFont = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    formulaFont.setPointSizeF(font().pointSizeF() * 1.1);
    formula_->setFont(formulaFont);
}

void RunPanel::showPipeline(int index) {
    variants_->clear();
    const PipelineSpec* spec = findPipeline(pipeline_->itemData(index).toString().toStdString());
    shownPipeline_ = spec;
    if (!spec) return;
    formula_->setText(text(spec->formula));
    description_->setText(text(spec->description));
    showProblemFields(*spec);
    for (const VariantSpec* runnable : runnableVariants(*spec)) {
        const VariantSpec& variant = *runnable;
        auto* item = new QListWidgetItem(text(variant.title), variants_);
        item->setData(kNameRole, text(variant.name));
        item->setToolTip(text(variant.description));
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable | Qt::ItemIsSelectable);
        item->setCheckState(Qt::Checked);
    }
    updateRunEnabled();
}

RunCommand RunPanel::command() const {
    RunCommand command;
    RunRequest& request = command.request;
    request.pipeline = pipeline_->currentData().toString().toStdString();
    for (int row = 0; row < variants_->count(); ++row)
        if (variants_->item(row)->checkState() == Qt::Checked)
            request.variants.push_back(
                variants_->item(row)->data(kNameRole).toString().toStdString());
    if (Result<Problem> problem = currentProblem(); problem) request.problem = *problem;
    request.settings.repeats = repeats_->value();
    request.settings.warmup = warmup_->value();
    request.cpuThreads = cpuThreads_->value();
    request.target.backend = currentBackend();
    // The picker's GPU, whenever the run goes to a GPU the worker listed.
    if (resolvedBackend() == BackendKind::Cuda && device_->currentIndex() >= 0)
        request.target.cudaDevice = device_->currentIndex();
    if (measure_->isChecked()) {
        command.measure = MeasureOptions{};
        command.measure->samplingIntervalNs = std::int64_t{sampleInterval_->value()} * 1000;
        command.measure->countedLaunches = countedLaunches_->value();
    } else {
        command.measure.reset();
    }
    return command;
}

void RunPanel::setCommand(const RunCommand& command) {
    const RunRequest& request = command.request;
    // A pipeline registered a moment ago (by the recording that holds the command) is listed.
    if (pipeline_->findData(text(request.pipeline)) < 0) refreshPipelines();
    const int pipelineIndex = pipeline_->findData(text(request.pipeline));
    if (pipelineIndex >= 0) pipeline_->setCurrentIndex(pipelineIndex);
    if (!request.variants.empty())
        for (int row = 0; row < variants_->count(); ++row) {
            QListWidgetItem* item = variants_->item(row);
            const std::string name = item->data(kNameRole).toString().toStdString();
            const bool chosen = std::find(request.variants.begin(), request.variants.end(), name) !=
                                request.variants.end();
            item->setCheckState(chosen ? Qt::Checked : Qt::Unchecked);
        }
    showProblem(request.problem);
    const int backendIndex = backend_->findData(backendChoiceItemKey(request.target.backend));
    if (backendIndex >= 0) backend_->setCurrentIndex(backendIndex);
    if (const std::optional<int> device = request.target.cudaDevice) {
        if (*device < device_->count())
            device_->setCurrentIndex(*device);
        else
            wantedDevice_ = *device;  // chosen when the worker lists the GPUs
    }
    repeats_->setValue(request.settings.repeats);
    warmup_->setValue(request.settings.warmup);
    cpuThreads_->setValue(request.cpuThreads);
    measure_->setChecked(command.measure.has_value());
    if (command.measure) {
        sampleInterval_->setValue(static_cast<int>(command.measure->samplingIntervalNs / 1000));
        countedLaunches_->setValue(command.measure->countedLaunches);
    }
}

QString RunPanel::validationMessage() const {
    const RunRequest current = command().request;
    if (current.pipeline.empty()) return tr("Choose a pipeline.");
    if (current.variants.empty()) return tr("Check at least one variant.");
    if (Result<Problem> problem = currentProblem(); !problem)
        return QString::fromStdString(problem.status().message());
    return {};
}

const PipelineSpec* RunPanel::currentPipeline() const {
    return findPipeline(pipeline_->currentData().toString().toStdString());
}

void RunPanel::updateRunEnabled() {
    const QString message = validationMessage();
    run_->setEnabled(!running_ && busyElsewhere_.isEmpty() && message.isEmpty());
    if (running_ || !busyElsewhere_.isEmpty()) return;
    // A validation message goes away once the choices are valid again; other stage text stays.
    if (!message.isEmpty()) {
        stage_->setText(message);
        showingValidation_ = true;
    } else if (showingValidation_) {
        stage_->clear();
        showingValidation_ = false;
    }
}

void RunPanel::setRunning(bool running) {
    running_ = running;
    cancel_->setEnabled(running || !busyElsewhere_.isEmpty());
    pipeline_->setEnabled(!running);
    variants_->setEnabled(!running);
    if (running) progress_->setValue(0);
    updateRunEnabled();
}

void RunPanel::setBusyElsewhere(const QString& job) {
    if (job == busyElsewhere_) return;
    busyElsewhere_ = job;
    cancel_->setEnabled(running_ || !job.isEmpty());
    run_->setToolTip(job.isEmpty()
                         ? runToolTip()
                         : tr("Waits for the %1: it has the worker (cancel it first)").arg(job));
    cancel_->setToolTip(job.isEmpty() ? cancelToolTip() : tr("Stop the %1 (Esc)").arg(job));
    if (!job.isEmpty()) progress_->setValue(0);
    updateRunEnabled();
}

void RunPanel::setProgress(double fraction, const QString& stage) {
    progress_->setValue(static_cast<int>(qBound(0.0, fraction, 1.0) * 1000));
    // A new text re-lays out the panel's wrapped labels; at the worker's 30 updates a second
    // that kept a core busy and slowed CPU-backend runs. Counters and time estimates change
    // the text at most twice a second; a new stage and the end show at once.
    constexpr qint64 kTextIntervalMs = 500;
    const QString key = model::progressStageKey(stage);
    const bool newStage = key != shownStageKey_;
    if (!newStage && fraction < 1.0 && textShown_.isValid() &&
        textShown_.elapsed() < kTextIntervalMs)
        return;
    shownStageKey_ = key;
    textShown_.start();
    stage_->setText(stage);
    showingValidation_ = false;
}

void RunPanel::setStatusText(const QString& text) {
    status_->setText(text);
}

}  // namespace fusescope

#include "ui/sweep/sweep_tab.h"

#include <QComboBox>
#include <QFile>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QStyle>
#include <QTableWidget>
#include <QVBoxLayout>
#include <cmath>

#include "model/element_count.h"
#include "model/format.h"
#include "model/limited_read.h"
#include "model/pipeline_catalog.h"
#include "model/recording.h"
#include "model/sweep_chart_conversion.h"
#include "model/sweep_json.h"
#include "ui/sweep/sweep_chart.h"
#include "ui/widgets/read_only_cell.h"
#include "ui/widgets/scroll_column.h"
#include "ui/widgets/wrapped_check_list.h"
#include "worker/run_controller.h"

namespace fusescope {
namespace {

QTableWidgetItem* cell(const QString& text, Qt::Alignment alignment = Qt::AlignRight) {
    return readOnlyCell(text, alignment | Qt::AlignVCenter);
}

}  // namespace

SweepTab::SweepTab(RunController* controller, QWidget* parent)
    : QWidget(parent), controller_(controller) {
    variants_ = new WrappedCheckList;
    variants_->setObjectName(QStringLiteral("sweepVariants"));
    from_ = new QLineEdit(QString::number(kDefaultSweepStart));
    from_->setObjectName(QStringLiteral("sweepFrom"));
    to_ = new QLineEdit;
    to_->setObjectName(QStringLiteral("sweepTo"));
    to_->setPlaceholderText(tr("as far as memory allows"));
    cacheMark_ = new QLabel;
    cacheMark_->setWordWrap(true);
    steps_ = new QSpinBox;
    steps_->setRange(1, kMaxStepsPerOctave);
    steps_->setToolTip(tr("Sizes per doubling of N"));
    vector_ = new QComboBox;
    for (int width : kSupportedVectorWidths)
        vector_->addItem(model::formatVectorWidth(width), width);
    vector_->setCurrentIndex(vector_->findData(kDefaultVectorWidth));
    repeats_ = new QSpinBox;
    repeats_->setRange(1, 100000);
    repeats_->setValue(20);
    run_ = new QPushButton(tr("Run sweep"));
    cancel_ = new QPushButton(tr("Cancel"));
    cancel_->setEnabled(false);
    progress_ = new QProgressBar;
    progress_->setRange(0, 1000);
    status_ = new QLabel;
    status_->setWordWrap(true);
    status_->setTextFormat(Qt::PlainText);  // file names and errors from files, never HTML
    status_->setObjectName(QStringLiteral("sweepStatus"));

    auto* form = new QFormLayout;
    // The titles take the form's whole width, under their label, and wrap rather than elide.
    form->addRow(new QLabel(tr("Variants")));
    form->addRow(variants_);
    fromLabel_ = new QLabel(tr("From N"));
    toLabel_ = new QLabel(tr("To N"));
    form->addRow(fromLabel_, from_);
    form->addRow(toLabel_, to_);
    form->addRow(cacheMark_);
    form->addRow(tr("Steps per octave"), steps_);
    form->addRow(tr("Vector"), vector_);
    form->addRow(tr("Repeats"), repeats_);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(run_);
    buttons->addWidget(cancel_);
    form->addRow(buttons);
    form->addRow(progress_);
    form->addRow(status_);
    auto* controls = new QWidget;
    // The rows keep their heights; the spare height goes below them.
    auto* column = new QVBoxLayout(controls);
    column->addLayout(form);
    column->addStretch(1);
    // On a short screen the controls scroll rather than set the window's least height.
    auto* controlsScroll = new QScrollArea;
    controlsScroll->setObjectName(QStringLiteral("sweepControls"));
    controlsScroll->setWidget(controls);
    controlsScroll->setWidgetResizable(true);
    controlsScroll->setFrameShape(QFrame::NoFrame);
    controlsScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // Beside the chart the controls take 290 px at most, unless they need more.
    keepScrollColumnFitted(controlsScroll,
                           290 + controlsScroll->style()->pixelMetric(QStyle::PM_ScrollBarExtent));

    chart_ = new SweepChart;
    chart_->setObjectName(QStringLiteral("sweepChart"));
    table_ = new QTableWidget(0, ColumnCount);
    table_->setObjectName(QStringLiteral("sweepPoints"));
    table_->setHorizontalHeaderLabels({tr("Variant"), tr("N"), tr("Time"), tr("GB/s"), tr("vs fit"),
                                       tr("Regime"), tr("Cache"), tr("Check")});
    table_->verticalHeader()->setVisible(false);
    table_->setAlternatingRowColors(true);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    badge_ = new QLabel;
    badge_->setObjectName(QStringLiteral("sweepBadge"));
    badge_->setWordWrap(true);  // a long data-source line must not widen the window
    badge_->setTextFormat(Qt::PlainText);
    tableBox_ = new QWidget;
    QWidget* tableBox = tableBox_;
    auto* tableLayout = new QVBoxLayout(tableBox);
    tableLayout->setContentsMargins(0, 0, 0, 0);
    tableLayout->addWidget(badge_);
    tableLayout->addWidget(table_, 1);

    auto* results = new QSplitter(Qt::Horizontal);
    results->addWidget(chart_);
    results->addWidget(tableBox);
    results->setStretchFactor(0, 3);
    results->setStretchFactor(1, 2);
    results->setSizes({640, 460});
    // The table may be dragged shut to give the chart the width.
    results->setCollapsible(0, false);
    results->setCollapsible(1, true);
    auto* layout = new QHBoxLayout(this);
    layout->addWidget(controlsScroll);
    layout->addWidget(results, 1);

    connect(run_, &QPushButton::clicked, this, &SweepTab::startSweep);
    connect(cancel_, &QPushButton::clicked, this, &SweepTab::cancelSweep);
    connect(variants_, &QListWidget::itemChanged, this, &SweepTab::updateEnabled);
    connect(from_, &QLineEdit::textChanged, this, [this] {
        updateCacheMark();
        updateEnabled();
    });
    connect(to_, &QLineEdit::textChanged, this, [this] {
        updateCacheMark();
        updateEnabled();
    });
    connect(controller_, &RunController::sweepStarted, this, &SweepTab::onStarted);
    connect(controller_, &RunController::sweepProgress, this,
            [this](double fraction, const QString& stage) {
                if (!sweeping_) return;
                progress_->setValue(static_cast<int>(qBound(0.0, fraction, 1.0) * 1000));
                status_->setText(stage);
            });
    connect(controller_, &RunController::sweepPointMeasured, this, &SweepTab::onPoint);
    connect(controller_, &RunController::sweepFinished, this, &SweepTab::onFinished);
    connect(controller_, &RunController::sweepFailed, this,
            [this](const QString& message) { endSweep(false, tr("Failed: %1").arg(message)); });
    connect(controller_, &RunController::sweepCancelled, this,
            [this] { endSweep(false, tr("Cancelled")); });

    if (!pipelines().empty()) setPipeline(QString::fromStdString(pipelines().front().name));
    showData({});
    updateCacheMark();
}

void SweepTab::setPointsTableShown(bool shown) {
    tableBox_->setVisible(shown);
}

void SweepTab::setPipeline(const QString& name) {
    const PipelineSpec* pipeline = findPipeline(name.toStdString());
    if (!pipeline || name == pipeline_) return;
    pipeline_ = name;
    // The size column is the dimension the pipeline's sweeps vary.
    const QString size = QString::fromStdString(pipeline->sizeDimension);
    table_->setHorizontalHeaderItem(1, new QTableWidgetItem(size));
    fromLabel_->setText(tr("From %1").arg(size));
    toLabel_->setText(tr("To %1").arg(size));
    steps_->setToolTip(tr("Sizes per doubling of %1").arg(size));
    // The vector width is a tuning of the elementwise pipelines only.
    vector_->setEnabled(pipeline->findTuning(kVectorWidthTuning) != nullptr);
    variants_->clear();
    for (const VariantSpec* runnable : runnableVariants(*pipeline)) {
        const VariantSpec& variant = *runnable;
        auto* item = new QListWidgetItem(QString::fromStdString(variant.title));
        item->setData(Qt::UserRole, QString::fromStdString(variant.name));
        item->setToolTip(QString::fromStdString(variant.description));
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Checked);
        variants_->addItem(item);
    }
    updateCacheMark();
    updateEnabled();
}

void SweepTab::setTarget(const Target& target) {
    target_ = target;
    updateCacheMark();
}

void SweepTab::setBackendSummary(const BackendSummary& summary) {
    summary_ = summary;
    updateCacheMark();
}

bool SweepTab::cacheIsGpus() const {
    return target_.backend == BackendChoice::Cuda ||
           (target_.backend == BackendChoice::Auto && summary_.cudaUsable);
}

quint64 SweepTab::cacheBytes() const {
    return cacheIsGpus() ? summary_.cudaL2Bytes : summary_.cpuLastLevelCacheBytes;
}

QString SweepTab::cacheName() const {
    return cacheIsGpus() ? tr("L2 of the GPU") : tr("CPU last-level cache");
}

void SweepTab::updateCacheMark() {
    const quint64 bytes = cacheBytes();
    if (bytes == 0) {
        cacheMark_->setText(tr("Cache size not known yet"));
        return;
    }
    QString text = tr("%1: %2").arg(cacheName(), model::formatBytes(bytes));
    const PipelineSpec* pipeline = findPipeline(pipeline_.toStdString());
    const quint64 fitsUpTo = model::sizeOneArrayFills(pipeline, bytes);
    if (fitsUpTo == 0) {
        // The swept size is not every buffer's length (the MLP's M): no size to mark.
        cacheMark_->setText(text);
        return;
    }
    text += QStringLiteral(", ") + model::cacheFitWords(pipeline, bytes);
    const std::optional<quint64> from = model::elementCountValue(from_->text());
    const std::optional<quint64> to = model::elementCountValue(to_->text());
    if (from && to)
        text += *from <= fitsUpTo && fitsUpTo < *to ? tr(" (inside the range: marked on the chart)")
                                                    : tr(" (outside the range)");
    cacheMark_->setText(text);
}

QString SweepTab::validationMessage() const {
    int checked = 0;
    for (int row = 0; row < variants_->count(); ++row)
        if (variants_->item(row)->checkState() == Qt::Checked) ++checked;
    if (checked == 0) return tr("Tick at least one variant to sweep.");
    const std::optional<quint64> from = model::elementCountValue(from_->text());
    if (!from) return tr("%1: enter a whole number ≥ 1 or 2^k.").arg(fromLabel_->text());
    if (to_->text().trimmed().isEmpty()) return {};
    const std::optional<quint64> to = model::elementCountValue(to_->text());
    if (!to)
        return tr("%1: enter a whole number ≥ 1 or 2^k, or leave it empty.").arg(toLabel_->text());
    if (*to < *from) return tr("%1 is below %2.").arg(toLabel_->text(), fromLabel_->text());
    return {};
}

SweepCommand SweepTab::command() const {
    SweepCommand command;
    SweepRequest& request = command.request;
    request.pipeline = pipeline_.toStdString();
    for (int row = 0; row < variants_->count(); ++row)
        if (variants_->item(row)->checkState() == Qt::Checked)
            request.variants.push_back(
                variants_->item(row)->data(Qt::UserRole).toString().toStdString());
    request.from = model::elementCountValue(from_->text()).value_or(kDefaultSweepStart);
    request.to =
        to_->text().trimmed().isEmpty() ? 0 : model::elementCountValue(to_->text()).value_or(0);
    request.stepsPerOctave = steps_->value();
    request.vectorWidth = vector_->currentData().toInt();
    request.settings.repeats = repeats_->value();
    request.settings.warmup = qMin(3, request.settings.repeats);
    request.target = target_;
    return command;
}

void SweepTab::updateEnabled() {
    const QString problem = validationMessage();
    // A run in progress is refused in startSweep() with a message, not by a button that would
    // stay disabled when that run ends.
    run_->setEnabled(!sweeping_ && problem.isEmpty());
    cancel_->setEnabled(sweeping_);
    if (!sweeping_ && !problem.isEmpty()) status_->setText(problem);
}

void SweepTab::startSweep() {
    if (sweeping_) return;
    if (controller_->isRunning()) {
        status_->setText(tr("A run is in progress: wait for it or cancel it first."));
        return;
    }
    if (const QString problem = validationMessage(); !problem.isEmpty()) {
        status_->setText(problem);
        return;
    }
    const SweepCommand next = command();
    const PipelineSpec* pipeline = findPipeline(next.request.pipeline);
    SweepChartData growing;
    growing.title =
        tr("Size sweep: %1")
            .arg(QString::fromStdString(pipeline ? pipeline->title : next.request.pipeline));
    growing.caption = (QStringList{tr("measuring…")}
                       << model::sweptProblemWords(pipeline, next.request.vectorWidth)
                       << tr("median of %1").arg(next.request.settings.repeats))
                          .join(QStringLiteral(" · "));
    growing.dataSource = model::dataSourceLabel(cacheIsGpus() ? model::DataSource::TimingModel
                                                              : model::DataSource::CpuBackend);
    growing.l2CacheBytes = static_cast<double>(cacheBytes());
    model::describeSweptSize(growing, pipeline);
    document_ = {};
    showData(growing);
    sweeping_ = true;
    progress_->setValue(0);
    status_->setText(tr("Starting…"));
    updateEnabled();
    controller_->submitSweep(next);
}

void SweepTab::cancelSweep() {
    if (!sweeping_) return;
    controller_->cancel();
    status_->setText(tr("Cancelling…"));
}

void SweepTab::onStarted(const QString& note) {
    if (sweeping_) status_->setText(note);
}

void SweepTab::onPoint(const SweepPointUpdate& update) {
    if (!sweeping_) return;
    SweepChartSeries* series = nullptr;
    for (SweepChartSeries& existing : data_.series)
        if (existing.name == update.variant) series = &existing;
    if (!series) {
        SweepChartSeries added;
        added.name = update.variant;
        added.launches = update.launches;
        added.bytesPerElement = update.bytesPerElement;
        data_.series.append(added);
        series = &data_.series.last();
    }
    series->points.append({static_cast<double>(update.point.n), update.point.timeMs,
                           update.point.effectiveGBps(), update.point.rooflineGBps});
    pointChecks_[{update.variant, update.point.n}] = update.point.checkOk;
    showData(data_);
}

void SweepTab::onFinished(const SweepOutcome& outcome) {
    if (!sweeping_) return;
    pointChecks_.clear();
    for (const SweepSeries& series : outcome.report.series)
        for (const SweepPoint& point : series.points)
            pointChecks_[{QString::fromStdString(series.variant), point.n}] = point.checkOk;
    showData(model::sweepChartData(outcome.report));
    document_ = model::sweepDocument(outcome.report, outcome.request, QStringLiteral("fusescope"));
    openedFileName_.clear();
    int fitted = 0;
    for (const SweepSeries& series : outcome.report.series)
        if (series.fit) ++fitted;
    endSweep(true, tr("Swept %1 sizes; %2 of %3 variants fitted")
                       .arg(outcome.report.sizes.size())
                       .arg(fitted)
                       .arg(outcome.report.series.size()));
}

void SweepTab::endSweep(bool ok, const QString& message) {
    if (!sweeping_) return;
    sweeping_ = false;
    progress_->setValue(ok ? 1000 : 0);
    status_->setText(message);
    updateEnabled();
    emit sweepEnded(ok, message);
}

void SweepTab::showData(const SweepChartData& shown) {
    data_ = shown;
    chart_->setData(data_);
    badge_->setText(data_.dataSource.isEmpty() ? tr("Points: none yet")
                                               : tr("Points · data: %1").arg(data_.dataSource));
    fillTable();
}

void SweepTab::fillTable() {
    int rows = 0;
    for (const SweepChartSeries& series : data_.series) rows += series.points.size();
    table_->setRowCount(rows);
    const double cacheN = data_.elementBytes > 0 ? data_.l2CacheBytes / data_.elementBytes : 0.0;
    int row = 0;
    for (const SweepChartSeries& series : data_.series) {
        for (const SweepChartPoint& point : series.points) {
            QString residual = QStringLiteral("-");
            QString regime = QStringLiteral("-");
            if (series.fit) {
                const double fitted = series.fittedTimeMs(point.n);
                if (fitted > 0) {
                    const double relative = (point.timeMs - fitted) / fitted;
                    residual = (relative >= 0 ? QStringLiteral("+") : QString()) +
                               model::formatPercent(relative);
                }
                // The larger of the two fitted terms names the regime, as in the engine.
                const double launchMs = series.launches * series.fit->overheadUs * 1e-3;
                const double bandwidthMs =
                    series.fit->bandwidthGBps > 0
                        ? point.n * series.bytesPerElement / (series.fit->bandwidthGBps * 1e6)
                        : 0.0;
                regime = launchMs > bandwidthMs ? tr("launch") : tr("bandwidth");
            }
            const auto check = pointChecks_.find({series.name, static_cast<quint64>(point.n)});
            const QString checkText = check == pointChecks_.end() ? QStringLiteral("-")
                                      : check->second             ? tr("OK")
                                                                  : tr("FAIL");
            table_->setItem(row, Variant, cell(series.name, Qt::AlignLeft));
            table_->setItem(row, N, cell(model::formatCount(static_cast<quint64>(point.n))));
            table_->setItem(row, Time, cell(model::formatDuration(point.timeMs)));
            table_->setItem(row, GBps, cell(model::formatGBps(point.gbps)));
            table_->setItem(row, VsFit, cell(residual));
            table_->setItem(row, Regime, cell(regime, Qt::AlignLeft));
            table_->setItem(
                row, Cache,
                cell(cacheN > 0 && point.n <= cacheN ? tr("in cache") : QString(), Qt::AlignLeft));
            table_->setItem(row, Check, cell(checkText, Qt::AlignLeft));
            ++row;
        }
    }
}

QString SweepTab::openSweepFile(const QString& path) {
    if (sweeping_) return tr("A sweep is running: cancel it before opening a file.");
    const Result<QByteArray> read = model::readFileLimited(path);
    if (!read) return QString::fromStdString(read.status().message());
    const QByteArray& bytes = *read;
    Result<model::SweepFile> sweep = model::parseSweepFile(bytes);
    if (!sweep)
        return tr("%1: %2").arg(QFileInfo(path).fileName(),
                                QString::fromStdString(sweep.status().message()));
    pointChecks_.clear();
    for (const SweepSeries& series : sweep->report.series)
        for (const SweepPoint& point : series.points)
            pointChecks_[{QString::fromStdString(series.variant), point.n}] = point.checkOk;
    // The controls describe the sweep on screen: its pipeline, with its variants ticked.
    setPipeline(QString::fromStdString(sweep->report.pipeline));
    for (int row = 0; row < variants_->count(); ++row) {
        QListWidgetItem* item = variants_->item(row);
        const std::string name = item->data(Qt::UserRole).toString().toStdString();
        bool swept = false;
        for (const SweepSeries& series : sweep->report.series) swept |= series.variant == name;
        item->setCheckState(swept ? Qt::Checked : Qt::Unchecked);
    }
    // Its sizes, steps, vector width and repeats too: Run sweep then measures the same sizes
    // again, the same way.
    if (!sweep->report.sizes.empty()) {
        from_->setText(QString::number(sweep->report.sizes.front()));
        to_->setText(QString::number(sweep->report.sizes.back()));
    }
    steps_->setValue(sweep->stepsPerOctave);
    if (const int vector = vector_->findData(sweep->report.vectorWidth); vector >= 0)
        vector_->setCurrentIndex(vector);
    if (sweep->report.repeats > 0) repeats_->setValue(sweep->report.repeats);
    // Save sweep writes the file as it was opened, keys this version does not know included.
    document_ = QJsonDocument::fromJson(bytes).object();
    openedFileName_ = QFileInfo(path).fileName();
    showData(model::sweepChartData(*sweep));
    progress_->setValue(0);
    status_->setText(tr("Showing %1 (%2)").arg(QFileInfo(path).fileName(), sweep->producer));
    return {};
}

void SweepTab::clearSweep() {
    status_->setText(QString());
    progress_->setValue(0);
    if (sweeping_) {
        controller_->cancel();
        endSweep(false, tr("Cancelled: another file was opened"));
    }
    pointChecks_.clear();
    document_ = {};
    openedFileName_.clear();
    showData({});
    updateEnabled();
}

Result<model::SweepFile> SweepTab::shownSweep() const {
    if (document_.isEmpty())
        return Status(ErrorCode::InvalidArgument,
                      tr("There is no sweep yet: run one or open a sweep file.").toStdString());
    return model::parseSweepFile(QJsonDocument(document_).toJson(QJsonDocument::Compact));
}

QString SweepTab::shownSweepName() const {
    return openedFileName_.isEmpty() ? tr("the last sweep") : openedFileName_;
}

QString SweepTab::saveSweepFile(const QString& path) const {
    if (document_.isEmpty()) return tr("There is no sweep to save yet: run one first.");
    const Status saved = model::saveSweepDocument(document_, path);
    return saved ? QString() : QString::fromStdString(saved.message());
}

}  // namespace fusescope

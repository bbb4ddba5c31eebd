#include "ui/lab/lab_view.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QShortcut>
#include <QSplitter>
#include <QVBoxLayout>

#include "ui/lab/lab_buffers.h"
#include "ui/lab/lab_editor.h"

// The starters live in this static library's resources, which a program must register.
static void registerLabResources() {
    Q_INIT_RESOURCE(lab);
}

namespace fusescope {
namespace {

const QString kStarterFolder = QStringLiteral(":/fusescope/lab");
constexpr int kSmallestLog2N = 16;
constexpr int kLargestLog2N = 28;
constexpr int kDefaultLog2N = 24;

// A starter's title: the first comment line of its source.
QString starterTitle(const model::LearnerKernel& kernel) {
    return kernel.source.section(QLatin1Char('\n'), 0, 0).remove(QStringLiteral("//")).trimmed();
}

Result<model::LearnerKernel> readStarter(const QString& name) {
    QFile file(kStarterFolder + QLatin1Char('/') + name);
    if (!file.open(QIODevice::ReadOnly))
        return Status(ErrorCode::IoError, "missing starter " + name.toStdString());
    return model::parseLearnerKernel(QString::fromUtf8(file.readAll()));
}

QString lastLine(const QString& text) {
    QString line = text.trimmed().section(QLatin1Char('\n'), -1);
    return line.remove(QStringLiteral("fusescope-cli: "));
}

}  // namespace

LabView::LabView(QWidget* parent) : QWidget(parent), process_(this) {
    registerLabResources();
    starters_ = new QComboBox;
    // Sized by a short title, not the longest.
    starters_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    starters_->setMinimumContentsLength(16);
    starters_->setObjectName(QStringLiteral("labStarter"));
    starters_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    starters_->setMinimumContentsLength(24);
    for (const QString& name : QDir(kStarterFolder).entryList({QStringLiteral("*.cu")}))
        if (Result<model::LearnerKernel> starter = readStarter(name))
            starters_->addItem(starterTitle(*starter), name);
    size_ = new QComboBox;
    size_->setObjectName(QStringLiteral("labSize"));
    for (int k = kSmallestLog2N; k <= kLargestLog2N; ++k)
        size_->addItem(QStringLiteral("N = 2^%1").arg(k), QVariant::fromValue(quint64{1} << k));
    size_->setCurrentIndex(kDefaultLog2N - kSmallestLog2N);
    auto* open = new QPushButton(tr("Open…"));
    auto* save = new QPushButton(tr("Save…"));
    buildButton_ = new QPushButton(tr("Build"));
    buildButton_->setObjectName(QStringLiteral("labBuild"));
    buildButton_->setToolTip(tr("Compile with NVRTC (Ctrl+B)"));
    runButton_ = new QPushButton(tr("Run"));
    runButton_->setObjectName(QStringLiteral("labRun"));
    cancelButton_ = new QPushButton(tr("Cancel"));
    cancelButton_->setObjectName(QStringLiteral("labCancel"));
    counters_ = new QCheckBox(tr("Counters"));
    counters_->setObjectName(QStringLiteral("labCounters"));
    counters_->setToolTip(
        tr("Also count your kernel's DRAM bytes with the hardware counters (a separate run); "
           "the pass counter then counts from them, not from your declaration"));
    // The actions first, on a row of their own: at 1280x720 with 150% the tab is narrow.
    auto* actions = new QHBoxLayout;
    actions->addWidget(buildButton_);
    actions->addWidget(runButton_);
    actions->addWidget(cancelButton_);
    actions->addWidget(open);
    actions->addWidget(save);
    actions->addStretch(1);
    auto* top = new QHBoxLayout;
    top->addWidget(starters_, 1);
    top->addWidget(size_);

    expression_ = new QLineEdit;
    expression_->setObjectName(QStringLiteral("labExpression"));
    expression_->setToolTip(
        tr("What the blank kernel must compute, e.g. out = silu(g) * u: its inputs and last "
           "output are the kernel's buffers, and its CPU evaluation checks your output"));
    expressionRow_ = new QWidget;
    auto* expressionLayout = new QHBoxLayout(expressionRow_);
    expressionLayout->setContentsMargins(0, 0, 0, 0);
    expressionLayout->addWidget(new QLabel(tr("Expression:")));
    expressionLayout->addWidget(expression_, 1);

    gpuNote_ = new QLabel;
    gpuNote_->setObjectName(QStringLiteral("labGpuNote"));
    gpuNote_->setWordWrap(true);
    openRecordingButton_ = new QPushButton(tr("Open a recording…"));
    openRecordingButton_->setObjectName(QStringLiteral("labOpenRecording"));
    auto* note = new QHBoxLayout;
    // First on its row: the tab's right edge is out of sight at 150% in a small window.
    note->addWidget(counters_);
    note->addWidget(gpuNote_, 1);
    note->addWidget(openRecordingButton_);

    editor_ = new LabEditor;
    messages_ = new QListWidget;
    messages_->setObjectName(QStringLiteral("labMessages"));
    messages_->setWordWrap(true);
    auto* left = new QSplitter(Qt::Vertical);
    left->addWidget(editor_);
    left->addWidget(messages_);
    left->setStretchFactor(0, 4);
    left->setStretchFactor(1, 1);
    left->setChildrenCollapsible(false);
    buffers_ = new LabBuffers;
    auto* split = new QSplitter(Qt::Horizontal);
    split->setObjectName(QStringLiteral("labSplitter"));
    split->addWidget(left);
    split->addWidget(buffers_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);

    status_ = new QLabel;
    status_->setObjectName(QStringLiteral("labStatus"));
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(actions);
    layout->addLayout(top);
    layout->addLayout(note);
    layout->addWidget(expressionRow_);
    layout->addWidget(split, 1);
    layout->addWidget(status_);

    connect(starters_, &QComboBox::activated, this, &LabView::loadStarter);
    connect(size_, &QComboBox::currentIndexChanged, this,
            [this] { buffers_->setElementCount(elementCount()); });
    connect(open, &QPushButton::clicked, this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Open a kernel"), {}, tr("CUDA kernels (*.cu)"));
        if (path.isEmpty()) return;
        if (const QString error = openKernel(path); !error.isEmpty()) setStatus(error);
    });
    connect(save, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save the kernel"), {},
                                                          tr("CUDA kernels (*.cu)"));
        if (path.isEmpty()) return;
        const QString error = saveKernel(path);
        setStatus(error.isEmpty() ? tr("Saved %1").arg(QDir::toNativeSeparators(path)) : error);
    });
    connect(expression_, &QLineEdit::editingFinished, this, [this] {
        if (expression_->text() == base_.expression) return;
        if (const QString error = setExpression(expression_->text()); !error.isEmpty())
            setStatus(error);
    });
    connect(buildButton_, &QPushButton::clicked, this, &LabView::build);
    connect(runButton_, &QPushButton::clicked, this, &LabView::run);
    connect(cancelButton_, &QPushButton::clicked, this, &LabView::cancel);
    connect(openRecordingButton_, &QPushButton::clicked, this, &LabView::openRecordingRequested);
    auto* buildKey = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_B), this);
    buildKey->setContext(Qt::WidgetWithChildrenShortcut);
    connect(buildKey, &QShortcut::activated, this, &LabView::build);
    connect(messages_, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) {
        editor_->jumpToLine(item->data(Qt::UserRole).toInt());
    });
    connect(&process_, &LabProcess::finished, this, &LabView::finish);

    buffers_->setElementCount(elementCount());
    loadStarter(0);
    setGpu(false, tr("looking for a GPU…"));
}

void LabView::setGpu(bool usable, const QString& reason) {
    gpuUsable_ = usable;
    gpuNote_->setText(
        usable ? tr("Run compiles your kernel, runs it on the GPU beside the shipped variants in "
                    "a process of its own, and opens the recording in every view.")
               : tr("Running needs a GPU (%1). Build still compiles here. A recording made "
                    "elsewhere with fusescope-cli run --kernel-file opens in every view.")
                     .arg(reason));
    openRecordingButton_->setVisible(!usable);
    // Counters are measured on the GPU that runs the kernel.
    counters_->setVisible(usable);
    followBusy();
}

void LabView::loadStarter(int index) {
    if (index < 0 || index >= starters_->count()) return;
    Result<model::LearnerKernel> starter = readStarter(starters_->itemData(index).toString());
    if (!starter) {
        setStatus(QString::fromStdString(starter.status().message()));
        return;
    }
    starters_->setCurrentIndex(index);
    showKernel(*starter);
    setStatus(tr("Starter: %1. Build with Ctrl+B.").arg(starters_->itemText(index)));
}

void LabView::showKernel(const model::LearnerKernel& kernel) {
    base_ = kernel;
    buffers_->setDeclarations(base_);
    editor_->setText(base_.source);
    messages_->clear();
    expression_->setText(base_.expression);
    expressionRow_->setVisible(!base_.expression.isEmpty());
}

QString LabView::setExpression(const QString& text) {
    Result<model::LearnerKernel> blank = model::blankKernelFor(text, base_.entry);
    if (!blank)
        return tr("The expression: %1").arg(QString::fromStdString(blank.status().message()));
    base_.expression = blank->expression;
    base_.buffers = blank->buffers;
    base_.passes = blank->passes;
    buffers_->setDeclarations(base_);
    expression_->setText(base_.expression);
    QStringList parameters;
    for (const model::LearnerBuffer& buffer : base_.buffers)
        parameters << (buffer.role == model::LearnerBufferRole::Input ? QStringLiteral("const ")
                                                                      : QString()) +
                          QStringLiteral("float* ") + buffer.name;
    setStatus(tr("Your kernel's parameters are now (%1, int N).")
                  .arg(parameters.join(QStringLiteral(", "))));
    return {};
}

Result<model::LearnerKernel> LabView::currentKernel() const {
    model::LearnerKernel kernel = base_;
    kernel.source = editor_->text();
    return buffers_->declared(kernel);
}

QString LabView::openKernel(const QString& path) {
    Result<model::LearnerKernel> kernel = model::loadLearnerKernel(path);
    if (!kernel) return QString::fromStdString(kernel.status().message());
    showKernel(*kernel);
    setStatus(tr("Opened %1").arg(QDir::toNativeSeparators(path)));
    return {};
}

QString LabView::saveKernel(const QString& path) {
    const Result<model::LearnerKernel> kernel = currentKernel();
    if (!kernel) return QString::fromStdString(kernel.status().message());
    const Status saved = model::saveLearnerKernel(*kernel, path);
    return saved ? QString() : QString::fromStdString(saved.message());
}

QString LabView::writeWorkFile() {
    const Result<model::LearnerKernel> kernel = currentKernel();
    if (!kernel) {
        setStatus(
            tr("The declarations: %1").arg(QString::fromStdString(kernel.status().message())));
        return {};
    }
    if (!work_.isValid()) {
        setStatus(tr("No temporary folder for the kernel: %1").arg(work_.errorString()));
        return {};
    }
    const QString path = work_.filePath(QStringLiteral("kernel.cu"));
    if (const Status saved = model::saveLearnerKernel(*kernel, path); !saved) {
        setStatus(QString::fromStdString(saved.message()));
        return {};
    }
    return path;
}

void LabView::build() {
    if (busy()) return;
    const QString path = writeWorkFile();
    if (path.isEmpty()) return;
    job_ = Job::Build;
    setStatus(tr("Building…"));
    followBusy();
    process_.start({QStringLiteral("run"), QStringLiteral("--kernel-file"), path,
                    QStringLiteral("--compile-only")},
                   buildMs_);
}

void LabView::run() {
    if (busy() || !gpuUsable_) return;
    const QString path = writeWorkFile();
    if (path.isEmpty()) return;
    job_ = Job::Run;
    ++runs_;
    const QString json = work_.filePath(QStringLiteral("run-%1.json").arg(runs_));
    setStatus(tr("Running your kernel beside the shipped variants…"));
    followBusy();
    QStringList arguments{QStringLiteral("run"),
                          QStringLiteral("--kernel-file"),
                          path,
                          QStringLiteral("--n"),
                          QString::number(elementCount()),
                          QStringLiteral("--json"),
                          json};
    if (counters_->isChecked())
        arguments << QStringLiteral("--measure") << QStringLiteral("counters");
    process_.start(arguments, runMs_);
}

QString LabView::setElementCount(quint64 n) {
    const int index = size_->findData(QVariant::fromValue(n));
    if (index < 0)
        return tr("N = %1 is not one of the Lab's sizes (2^%2 to 2^%3)")
            .arg(n)
            .arg(kSmallestLog2N)
            .arg(kLargestLog2N);
    size_->setCurrentIndex(index);
    return QString();
}

quint64 LabView::elementCount() const {
    return size_->currentData().toULongLong();
}

void LabView::cancel() {
    process_.cancel();
}

bool LabView::busy() const {
    return job_ != Job::None;
}

void LabView::setTimeLimits(int buildMs, int runMs) {
    buildMs_ = buildMs;
    runMs_ = runMs;
}

void LabView::finish(const LabOutcome& outcome) {
    const Job job = job_;
    job_ = Job::None;
    followBusy();
    if (job == Job::Build) finishBuild(outcome);
    if (job == Job::Run) finishRun(outcome);
}

bool LabView::showCompileMessages(const QString& log) {
    const Result<model::LearnerKernel> kernel = currentKernel();
    const int header = kernel ? kernel->headerLines() : 0;
    const QVector<model::CompileMessage> messages =
        model::shiftedLines(model::parseCompileLog(log), header);
    editor_->showMessages(messages);
    messages_->clear();
    for (const model::CompileMessage& message : messages) {
        const bool error = message.severity == model::CompileSeverity::Error;
        auto* item =
            new QListWidgetItem(tr("line %1: %2: %3")
                                    .arg(message.line)
                                    .arg(error ? tr("error") : tr("warning"), message.text));
        item->setData(Qt::UserRole, message.line);
        item->setToolTip(message.context);
        messages_->addItem(item);
    }
    return !messages.isEmpty();
}

void LabView::finishBuild(const LabOutcome& outcome) {
    using Kind = LabOutcome::Kind;
    bool ok = false;
    if (outcome.kind == Kind::TimedOut) {
        setStatus(
            tr("The compiler did not finish within %1 s; it was stopped.").arg(buildMs_ / 1000.0));
    } else if (outcome.kind == Kind::Cancelled) {
        setStatus(tr("Build cancelled."));
    } else if (outcome.kind != Kind::Finished) {
        setStatus(tr("The compiler's process ended abnormally: %1").arg(lastLine(outcome.err)));
    } else {
        showCompileMessages(outcome.out);
        ok = outcome.exitCode == 0;
        const int count = messages_->count();
        setStatus(ok ? (count == 0 ? tr("Built: no errors, no warnings.")
                                   : tr("Built, with %n warning(s).", nullptr, count))
                     : lastLine(outcome.err));
    }
    emit buildFinished(ok);
}

void LabView::finishRun(const LabOutcome& outcome) {
    using Kind = LabOutcome::Kind;
    QString message;
    bool ok = false;
    const QString json = work_.filePath(QStringLiteral("run-%1.json").arg(runs_));
    if (outcome.kind == Kind::TimedOut) {
        message = tr("The run did not end within %1 s; its process was stopped. The window is "
                     "unaffected.")
                      .arg(runMs_ / 1000.0);
    } else if (outcome.kind == Kind::Cancelled) {
        message = tr("Run cancelled; its process was stopped.");
    } else if (outcome.kind == Kind::Crashed) {
        message =
            tr("The run's process crashed (%1). The window is unaffected.")
                .arg(lastLine(outcome.err).isEmpty() ? tr("no message") : lastLine(outcome.err));
    } else if (outcome.kind == Kind::NotStarted) {
        message = outcome.err;
    } else if (outcome.exitCode == 2 && showCompileMessages(outcome.out)) {
        message = tr("Your kernel did not compile; nothing ran.");
    } else if ((outcome.exitCode == 0 || outcome.exitCode == 1) && QFile::exists(json)) {
        ok = outcome.exitCode == 0;
        const QString wrong = outcome.out.split(QLatin1Char('\n'))
                                  .filter(QStringLiteral("first wrong element"))
                                  .value(0);
        message = ok ? tr("Your kernel's output matches the reference. Its run stands beside the "
                          "shipped variants in every view.")
                     : tr("Your kernel's output is wrong: %1")
                           .arg(wrong.isEmpty() ? lastLine(outcome.err) : wrong);
        emit recordingReady(json);
    } else {
        message = lastLine(outcome.err);
    }
    setStatus(message);
    emit runFinished(ok, message);
}

void LabView::setStatus(const QString& text) {
    status_->setText(text);
}

void LabView::followBusy() {
    buildButton_->setEnabled(!busy());
    runButton_->setEnabled(!busy() && gpuUsable_);
    cancelButton_->setEnabled(busy());
}

}  // namespace fusescope

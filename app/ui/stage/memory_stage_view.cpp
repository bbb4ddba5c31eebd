#include "ui/stage/memory_stage_view.h"

#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QKeyEvent>
#include <QLabel>
#include <QMessageBox>
#include <QProgressDialog>
#include <QSettings>
#include <QShortcut>
#include <QVBoxLayout>

#include "model/stage/stage_timeline.h"
#include "ui/stage/stage_controls.h"
#include "ui/stage/stage_player.h"

namespace fusescope {
namespace {

const QString kPlaySecondsKey = QStringLiteral("stage/playSeconds");
const QString kLessonModeKey = QStringLiteral("stage/lessonMode");

QVector<qint64> kernelStops(const StageRenderer& renderer) {
    QVector<qint64> stops;
    for (int side = 0; side < renderer.paneCount(); ++side) {
        const model::StageTimeline& timeline = renderer.timeline(side);
        stops.push_back(timeline.kernelsStartNs);
        for (const model::StageKernel& kernel : timeline.kernels)
            stops << kernel.startNs << kernel.endNs;
        stops.push_back(timeline.endNs);
    }
    return stops;
}

}  // namespace

MemoryStageView::MemoryStageView(QWidget* parent)
    : QWidget(parent),
      stage_(new MemoryStageWidget(this)),
      player_(new StagePlayer(this)),
      controls_(new StageControls(player_, this)),
      gifJob_(new StageGifExportJob(this)),
      pairBar_(new QWidget(this)),
      leftRun_(new QComboBox(pairBar_)),
      rightRun_(new QComboBox(pairBar_)) {
    auto* pairLayout = new QHBoxLayout(pairBar_);
    pairLayout->setContentsMargins(4, 2, 4, 2);
    pairLayout->addWidget(new QLabel(tr("Left:"), pairBar_));
    pairLayout->addWidget(leftRun_);
    pairLayout->addSpacing(12);
    pairLayout->addWidget(new QLabel(tr("Right:"), pairBar_));
    pairLayout->addWidget(rightRun_);
    pairLayout->addStretch(1);
    for (QComboBox* box : {leftRun_, rightRun_}) {
        box->setFocusPolicy(Qt::NoFocus);
        box->setSizeAdjustPolicy(QComboBox::AdjustToContents);
        connect(box, &QComboBox::activated, this, [this] {
            showRecordingRuns(leftRun_->currentData().toInt(), rightRun_->currentData().toInt());
        });
    }
    pairBar_->hide();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(pairBar_);
    layout->addWidget(stage_, 1);
    layout->addWidget(controls_);
    setFocusProxy(stage_);

    connect(player_, &StagePlayer::positionChanged, stage_, &MemoryStageWidget::setPosition);
    connect(player_, &StagePlayer::positionChanged, this, &MemoryStageView::positionChanged);
    connect(controls_, &StageControls::lessonModeToggled, this, &MemoryStageView::setLessonMode);
    connect(player_, &StagePlayer::playSecondsChanged, this, [this](double seconds) {
        if (settings_) settings_->setValue(kPlaySecondsKey, seconds);
    });
    // F11 anywhere in the window while the stage is shown (in its tab, or as its own full-screen
    // window); a hidden stage's shortcut does not fire.
    auto* fullScreenKey = new QShortcut(QKeySequence(Qt::Key_F11), this);
    fullScreenKey->setContext(Qt::WindowShortcut);
    connect(fullScreenKey, &QShortcut::activated, this, [this] { setFullScreen(!isFullScreen()); });
    connect(controls_, &StageControls::fullScreenToggled, this, &MemoryStageView::setFullScreen);
    connect(controls_, &StageControls::exportPngRequested, this,
            [this] { askExportFrame(QStringLiteral("png")); });
    connect(controls_, &StageControls::exportSvgRequested, this,
            [this] { askExportFrame(QStringLiteral("svg")); });
    connect(controls_, &StageControls::exportGifRequested, this, &MemoryStageView::askExportGif);
    connect(gifJob_, &StageGifExportJob::progress, this, &MemoryStageView::gifExportProgress);
    connect(gifJob_, &StageGifExportJob::finished, this, &MemoryStageView::gifExportFinished);
}

bool MemoryStageView::setRuns(const model::VariantResult& left, const model::VariantResult* right,
                              const StageCaptionContext& caption) {
    player_->pause();
    Result<model::StageTimeline> leftTimeline = model::buildStageTimeline(left);
    if (!leftTimeline) {
        lastError_ = QString::fromStdString(leftTimeline.status().message());
        return false;
    }
    std::optional<model::StageTimeline> rightTimeline;
    if (right) {
        Result<model::StageTimeline> built = model::buildStageTimeline(*right);
        if (!built) {
            lastError_ = QString::fromStdString(built.status().message());
            return false;
        }
        rightTimeline = std::move(*built);
        model::alignStageTimelines(*leftTimeline, *rightTimeline);
    }
    lastError_.clear();
    stage_->setCaption(caption);
    stage_->setTimelines(*leftTimeline, rightTimeline ? &*rightTimeline : nullptr);
    player_->setDuration(stage_->durationNs());
    player_->setStops(kernelStops(stage_->renderer()));
    player_->seek(0);
    stage_->setPosition(0);
    emit timelinesChanged();
    return true;
}

void MemoryStageView::setRecording(const model::Recording& recording) {
    recording_ = recording;
    const model::StageRunPair pair = model::defaultStageRunPair(recording_);
    for (QComboBox* box : {leftRun_, rightRun_}) {
        QSignalBlocker block(box);
        box->clear();
        if (box == rightRun_) box->addItem(tr("(none)"), -1);
        for (int i = 0; i < runCount(recording_); ++i) {
            const model::VariantResult& run = recording_.runs[i];
            box->addItem(QStringLiteral("%1 %2").arg(model::toQString(run.pipeline),
                                                     model::toQString(run.variant)),
                         i);
        }
    }
    pairBar_->setVisible(recording_.runs.size() > 1);
    shownLeft_ = shownRight_ = -1;
    if (pair.left < 0) return;
    showRecordingRuns(pair.left, pair.right);
}

void MemoryStageView::showRecordingRuns(int left, int right) {
    if (left < 0 || left >= model::runCount(recording_)) return;
    const bool hasRight = right >= 0 && right < model::runCount(recording_) && right != left;
    {
        QSignalBlocker blockLeft(leftRun_), blockRight(rightRun_);
        leftRun_->setCurrentIndex(leftRun_->findData(left));
        rightRun_->setCurrentIndex(rightRun_->findData(hasRight ? right : -1));
    }
    const model::VariantResult& leftRun = recording_.runs[left];
    shownLeft_ = left;
    shownRight_ = hasRight ? right : -1;
    if (!setRuns(leftRun, hasRight ? &recording_.runs[right] : nullptr,
                 stageCaptionContext(recording_, leftRun)))
        showError(lastError_);
}

void MemoryStageView::showError(const QString& message) {
    if (isVisible()) QMessageBox::warning(this, tr("Memory stage"), message);
}

qint64 MemoryStageView::position() const {
    return player_->position();
}

qint64 MemoryStageView::durationNs() const {
    return stage_->durationNs();
}

qint64 MemoryStageView::toRunClockNs(int side, qint64 stageNs) const {
    if (side < 0 || side >= stage_->renderer().paneCount()) return 0;
    return stage_->renderer().timeline(side).toRunClockNs(stageNs);
}

qint64 MemoryStageView::fromRunClockNs(int side, qint64 runNs) const {
    if (side < 0 || side >= stage_->renderer().paneCount()) return 0;
    return stage_->renderer().timeline(side).fromRunClockNs(runNs);
}

int MemoryStageView::paneCount() const {
    return stage_->renderer().paneCount();
}

bool MemoryStageView::hasRunClock(int side) const {
    return side >= 0 && side < paneCount() &&
           stage_->renderer().timeline(side).timesFromDeviceTimeline;
}

QPair<qint64, qint64> MemoryStageView::runClockKernelSpan(int side) const {
    if (side < 0 || side >= paneCount()) return {0, 0};
    const model::StageTimeline& timeline = stage_->renderer().timeline(side);
    return {timeline.toRunClockNs(timeline.kernelsStartNs),
            timeline.toRunClockNs(timeline.kernelsEndNs)};
}

QString MemoryStageView::sideLabel(int side) const {
    if (side < 0 || side >= paneCount()) return {};
    return stage_->renderer().timeline(side).variant;
}

void MemoryStageView::setSettings(QSettings* settings) {
    settings_ = settings;
    if (!settings_) return;
    const QVariant seconds = settings_->value(kPlaySecondsKey);
    if (seconds.isValid()) player_->setPlaySeconds(seconds.toDouble());
    const bool lesson = settings_->value(kLessonModeKey, false).toBool();
    stage_->setLessonMode(lesson);
    controls_->setLessonChecked(lesson);
}

void MemoryStageView::setLessonMode(bool lesson) {
    stage_->setLessonMode(lesson);
    controls_->setLessonChecked(lesson);
    if (isFullScreen()) lessonBeforeFullScreen_ = lesson;
    if (settings_) settings_->setValue(kLessonModeKey, lesson);
}

bool MemoryStageView::lessonMode() const {
    return stage_->lessonMode();
}

void MemoryStageView::seek(qint64 stageNs) {
    player_->seek(stageNs);
}

void MemoryStageView::seekRunClock(int side, qint64 runNs) {
    player_->seek(fromRunClockNs(side, runNs));
}

void MemoryStageView::play() {
    player_->play();
}

void MemoryStageView::pause() {
    player_->pause();
}

void MemoryStageView::setFullScreen(bool fullScreen) {
    // A tab cannot be full screen; the view becomes a window of its own while it is.
    if (fullScreen == isFullScreen()) return;
    // Full screen is for the class: lesson mode (large type, high contrast) comes with it, and
    // the user's own choice returns afterwards.
    if (fullScreen) {
        lessonBeforeFullScreen_ = lessonMode();
        stage_->setLessonMode(true);
        controls_->setLessonChecked(true);
        setWindowFlag(Qt::Window, true);
        showFullScreen();
    } else {
        stage_->setLessonMode(lessonBeforeFullScreen_);
        controls_->setLessonChecked(lessonBeforeFullScreen_);
        setWindowFlag(Qt::Window, false);
        showNormal();
        show();
    }
    controls_->setFullScreenChecked(fullScreen);
    stage_->setFocus();
}

void MemoryStageView::keyPressEvent(QKeyEvent* event) {
    const bool shift = event->modifiers() & Qt::ShiftModifier;
    switch (event->key()) {
        case Qt::Key_Space:
            player_->togglePlayPause();
            break;
        case Qt::Key_Right:
            shift ? player_->scrubBy(0.02) : player_->stepToNextKernel();
            break;
        case Qt::Key_Left:
            shift ? player_->scrubBy(-0.02) : player_->stepToPreviousKernel();
            break;
        case Qt::Key_Home:
            player_->restart();
            break;
        case Qt::Key_L:
            setLessonMode(!lessonMode());
            break;
        case Qt::Key_F11:  // where the shortcut does not reach (a window not yet active)
            setFullScreen(!isFullScreen());
            break;
        case Qt::Key_Escape:
            if (isFullScreen()) {
                setFullScreen(false);
                break;
            }
            [[fallthrough]];
        default:
            QWidget::keyPressEvent(event);
            return;
    }
    event->accept();
}

StageExportResult MemoryStageView::exportFrame(const QString& path, const QSize& size) const {
    if (path.endsWith(QStringLiteral(".svg"), Qt::CaseInsensitive))
        return exportStageSvg(stage_->renderer(), path, size, stage_->position());
    return exportStagePng(stage_->renderer(), path, size, stage_->position());
}

void MemoryStageView::exportGif(const QString& path, const StageGifOptions& options) {
    if (gifJob_->isRunning()) return;
    if (isVisible()) {
        delete gifProgress_;
        gifProgress_ = new QProgressDialog(tr("Writing the GIF…"), tr("Cancel"), 0,
                                           stageGifFrameCount(options), this);
        gifProgress_->setWindowModality(Qt::WindowModal);
        gifProgress_->setMinimumDuration(300);
        connect(gifProgress_, &QProgressDialog::canceled, gifJob_, &StageGifExportJob::cancel);
        connect(gifJob_, &StageGifExportJob::progress, gifProgress_, &QProgressDialog::setValue);
        connect(gifJob_, &StageGifExportJob::finished, gifProgress_, &QProgressDialog::reset);
    }
    gifJob_->start(stage_->renderer(), path, options);
}

void MemoryStageView::askExportFrame(const QString& format) {
    if (!stage_->hasTimelines()) return;
    const QStringList sizes = {QStringLiteral("1920 × 1080"), QStringLiteral("1280 × 720"),
                               QStringLiteral("3840 × 2160"), tr("as on screen")};
    bool ok = false;
    const QString choice =
        QInputDialog::getItem(this, tr("Export frame"), tr("Size:"), sizes, 0, false, &ok);
    if (!ok) return;
    QSize size = stage_->size();
    if (choice != sizes.last()) {
        const QStringList parts = choice.split(QStringLiteral(" × "));
        size = QSize(parts[0].toInt(), parts[1].toInt());
    }
    const QString filter =
        format == QStringLiteral("svg") ? tr("SVG images (*.svg)") : tr("PNG images (*.png)");
    QString path = QFileDialog::getSaveFileName(
        this, tr("Export frame"), QStringLiteral("memory-stage.%1").arg(format), filter);
    if (path.isEmpty()) return;
    if (!path.endsWith(QLatin1Char('.') + format, Qt::CaseInsensitive))
        path += QLatin1Char('.') + format;
    const StageExportResult result = exportFrame(path, size);
    if (!result.ok) QMessageBox::warning(this, tr("Export frame"), result.message);
}

void MemoryStageView::askExportGif() {
    if (!stage_->hasTimelines()) return;
    QString path = QFileDialog::getSaveFileName(this, tr("Export animation"),
                                                QStringLiteral("memory-stage.gif"),
                                                tr("GIF animations (*.gif)"));
    if (path.isEmpty()) return;
    if (!path.endsWith(QStringLiteral(".gif"), Qt::CaseInsensitive)) path += QStringLiteral(".gif");
    StageGifOptions options;
    options.playSeconds = player_->playSeconds();
    connect(
        gifJob_, &StageGifExportJob::finished, this,
        [this](const StageExportResult& result) {
            if (!result.ok && result.message != QStringLiteral("GIF export cancelled"))
                QMessageBox::warning(this, tr("Export animation"), result.message);
        },
        Qt::SingleShotConnection);
    exportGif(path, options);
}

}  // namespace fusescope

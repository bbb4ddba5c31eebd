#include "ui/stage/stage_controls.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QPainter>
#include <QSlider>
#include <QToolButton>

#include "ui/stage/stage_player.h"

namespace fusescope {
namespace {

constexpr int kSliderSteps = 1000;

QToolButton* makeButton(QWidget* parent, const QString& tip) {
    auto* button = new QToolButton(parent);
    button->setToolTip(tip);
    button->setAutoRaise(true);
    button->setFocusPolicy(Qt::NoFocus);  // keys belong to the stage
    return button;
}

// Triangles pointing left or right, and upright bars, on a 64-pixel grid.
void drawTriangle(QPainter& painter, double left, double right, bool pointsRight) {
    const double tip = pointsRight ? right : left, base = pointsRight ? left : right;
    painter.drawPolygon(QPolygonF{QPointF(base, 12), QPointF(base, 52), QPointF(tip, 32)});
}

}  // namespace

// The style's media icons are dark glyphs that vanish on a dark theme: these are drawn in the
// palette's button text colour instead, so they keep its contrast in every theme.
QIcon StageControls::transportIcon(Transport kind, const QColor& color) {
    QPixmap pixmap(64, 64);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(Qt::NoPen);
    painter.setBrush(color);
    switch (kind) {
        case Transport::Restart:
            painter.drawRect(QRectF(10, 12, 7, 40));
            drawTriangle(painter, 19, 54, false);
            break;
        case Transport::Previous:
            drawTriangle(painter, 6, 32, false);
            drawTriangle(painter, 32, 58, false);
            break;
        case Transport::Play:
            drawTriangle(painter, 16, 52, true);
            break;
        case Transport::Pause:
            painter.drawRect(QRectF(16, 12, 11, 40));
            painter.drawRect(QRectF(37, 12, 11, 40));
            break;
        case Transport::Next:
            drawTriangle(painter, 6, 32, true);
            drawTriangle(painter, 32, 58, true);
            break;
    }
    return QIcon(pixmap);
}

void StageControls::paintIcons() {
    const QColor color = palette().color(QPalette::ButtonText);
    restartButton_->setIcon(transportIcon(Transport::Restart, color));
    previousButton_->setIcon(transportIcon(Transport::Previous, color));
    nextButton_->setIcon(transportIcon(Transport::Next, color));
    playButton_->setIcon(transportIcon(playing_ ? Transport::Pause : Transport::Play, color));
}

void StageControls::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) paintIcons();
}

StageControls::StageControls(StagePlayer* player, QWidget* parent)
    : QWidget(parent), player_(player) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);

    restartButton_ = makeButton(this, tr("Restart (Home)"));
    previousButton_ = makeButton(this, tr("Previous kernel (Left)"));
    playButton_ = makeButton(this, tr("Play / pause (Space)"));
    nextButton_ = makeButton(this, tr("Next kernel (Right)"));
    QToolButton* restart = restartButton_;
    QToolButton* previous = previousButton_;
    QToolButton* next = nextButton_;
    paintIcons();
    slider_ = new QSlider(Qt::Horizontal, this);
    slider_->setRange(0, kSliderSteps);
    slider_->setFocusPolicy(Qt::NoFocus);
    slider_->setToolTip(tr("Scrub (Shift+Left / Shift+Right)"));
    timeLabel_ = new QLabel(this);
    timeLabel_->setMinimumWidth(
        timeLabel_->fontMetrics().horizontalAdvance(QStringLiteral("000 %")));

    speed_ = new QComboBox(this);
    speed_->setFocusPolicy(Qt::NoFocus);
    speed_->setToolTip(tr("How long the whole run takes to play"));
    for (int seconds : {5, 10, 15, 20}) speed_->addItem(tr("run in %1 s").arg(seconds), seconds);
    speed_->setCurrentIndex(speed_->findData(static_cast<int>(player_->playSeconds())));

    lessonButton_ = new QToolButton(this);
    lessonButton_->setText(tr("Lesson mode"));
    lessonButton_->setToolTip(tr("Large type, high contrast (L)"));
    lessonButton_->setCheckable(true);
    lessonButton_->setFocusPolicy(Qt::NoFocus);
    fullScreenButton_ = new QToolButton(this);
    fullScreenButton_->setText(tr("Full screen"));
    fullScreenButton_->setToolTip(tr("Full screen (F11, Esc leaves)"));
    fullScreenButton_->setCheckable(true);
    fullScreenButton_->setFocusPolicy(Qt::NoFocus);

    auto* exportButton = new QToolButton(this);
    exportButton->setText(tr("Export"));
    exportButton->setPopupMode(QToolButton::InstantPopup);
    exportButton->setFocusPolicy(Qt::NoFocus);
    auto* menu = new QMenu(exportButton);
    menu->addAction(tr("Frame as PNG…"), this, &StageControls::exportPngRequested);
    menu->addAction(tr("Frame as SVG…"), this, &StageControls::exportSvgRequested);
    menu->addAction(tr("Animation as GIF…"), this, &StageControls::exportGifRequested);
    exportButton->setMenu(menu);

    for (QWidget* widget : std::initializer_list<QWidget*>{restart, previous, playButton_, next})
        layout->addWidget(widget);
    layout->addWidget(slider_, 1);
    layout->addWidget(timeLabel_);
    layout->addWidget(speed_);
    layout->addWidget(lessonButton_);
    layout->addWidget(fullScreenButton_);
    layout->addWidget(exportButton);

    connect(restart, &QToolButton::clicked, player_, &StagePlayer::restart);
    connect(previous, &QToolButton::clicked, player_, &StagePlayer::stepToPreviousKernel);
    connect(playButton_, &QToolButton::clicked, player_, &StagePlayer::togglePlayPause);
    connect(next, &QToolButton::clicked, player_, &StagePlayer::stepToNextKernel);
    connect(slider_, &QSlider::valueChanged, this, [this](int value) {
        if (sliderBeingSet_) return;
        player_->seek(player_->duration() * value / kSliderSteps);
    });
    connect(speed_, &QComboBox::currentIndexChanged, this,
            [this](int index) { player_->setPlaySeconds(speed_->itemData(index).toDouble()); });
    connect(player_, &StagePlayer::playSecondsChanged, this, [this](double seconds) {
        const int index = speed_->findData(static_cast<int>(std::lround(seconds)));
        if (index >= 0) speed_->setCurrentIndex(index);
    });
    connect(lessonButton_, &QToolButton::toggled, this, &StageControls::lessonModeToggled);
    connect(fullScreenButton_, &QToolButton::toggled, this, &StageControls::fullScreenToggled);
    connect(player_, &StagePlayer::positionChanged, this, &StageControls::showPosition);
    connect(player_, &StagePlayer::playingChanged, this, &StageControls::showPlaying);
    showPosition(player_->position());
}

void StageControls::setLessonChecked(bool lesson) {
    QSignalBlocker block(lessonButton_);
    lessonButton_->setChecked(lesson);
}

void StageControls::setFullScreenChecked(bool fullScreen) {
    QSignalBlocker block(fullScreenButton_);
    fullScreenButton_->setChecked(fullScreen);
}

void StageControls::showPosition(qint64 stageNs) {
    const qint64 duration = std::max<qint64>(1, player_->duration());
    sliderBeingSet_ = true;
    slider_->setValue(static_cast<int>(stageNs * kSliderSteps / duration));
    sliderBeingSet_ = false;
    timeLabel_->setText(QStringLiteral("%1 %").arg(stageNs * 100 / duration));
}

void StageControls::showPlaying(bool playing) {
    playing_ = playing;
    paintIcons();
}

}  // namespace fusescope

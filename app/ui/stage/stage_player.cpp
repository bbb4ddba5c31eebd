#include "ui/stage/stage_player.h"

#include <algorithm>
#include <cmath>

namespace fusescope {

StagePlayer::StagePlayer(QObject* parent) : QObject(parent) {
    timer_.setTimerType(Qt::PreciseTimer);
    timer_.setInterval(16);  // about 60 frames per second
    connect(&timer_, &QTimer::timeout, this, &StagePlayer::tick);
}

void StagePlayer::setDuration(qint64 durationNs) {
    durationNs_ = std::max<qint64>(0, durationNs);
    setPositionInternal(std::min(positionNs_, durationNs_));
}

void StagePlayer::setStops(QVector<qint64> stopsNs) {
    std::sort(stopsNs.begin(), stopsNs.end());
    stopsNs.erase(std::unique(stopsNs.begin(), stopsNs.end()), stopsNs.end());
    stops_ = std::move(stopsNs);
}

void StagePlayer::play() {
    if (durationNs_ <= 0 || timer_.isActive()) return;
    if (positionNs_ >= durationNs_) setPositionInternal(0);
    clock_.start();
    lastTickNs_ = 0;
    timer_.start();
    emit playingChanged(true);
}

void StagePlayer::pause() {
    if (!timer_.isActive()) return;
    timer_.stop();
    emit playingChanged(false);
}

void StagePlayer::togglePlayPause() {
    isPlaying() ? pause() : play();
}

void StagePlayer::restart() {
    setPositionInternal(0);
    play();
}

void StagePlayer::seek(qint64 stageNs) {
    setPositionInternal(std::clamp<qint64>(stageNs, 0, durationNs_));
}

void StagePlayer::scrubBy(double fractionOfDuration) {
    seek(positionNs_ + static_cast<qint64>(std::llround(fractionOfDuration * double(durationNs_))));
}

void StagePlayer::stepToNextKernel() {
    pause();
    const auto next = std::upper_bound(stops_.begin(), stops_.end(), positionNs_);
    seek(next == stops_.end() ? durationNs_ : *next);
}

void StagePlayer::stepToPreviousKernel() {
    pause();
    auto previous = std::lower_bound(stops_.begin(), stops_.end(), positionNs_);
    seek(previous == stops_.begin() ? 0 : *std::prev(previous));
}

void StagePlayer::setPlaySeconds(double seconds) {
    const double clamped = std::clamp(seconds, kMinPlaySeconds, kMaxPlaySeconds);
    if (clamped == playSeconds_) return;
    playSeconds_ = clamped;
    emit playSecondsChanged(playSeconds_);
}

void StagePlayer::tick() {
    // Wall time since the last tick, scaled so the whole duration takes playSeconds.
    const qint64 nowNs = clock_.nsecsElapsed();
    const double wallNs = double(nowNs - lastTickNs_);
    lastTickNs_ = nowNs;
    const double stagePerWall = double(durationNs_) / (playSeconds_ * 1e9);
    const qint64 next = positionNs_ + static_cast<qint64>(std::llround(wallNs * stagePerWall));
    if (next >= durationNs_) {
        setPositionInternal(durationNs_);
        pause();
        return;
    }
    setPositionInternal(next);
}

void StagePlayer::setPositionInternal(qint64 stageNs) {
    if (stageNs == positionNs_) return;
    positionNs_ = stageNs;
    emit positionChanged(positionNs_);
}

}  // namespace fusescope

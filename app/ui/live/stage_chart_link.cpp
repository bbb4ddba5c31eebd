#include "live/stage_chart_link.h"

#include <limits>

#include "live/live_bandwidth_chart.h"
#include "ui/stage/memory_stage_view.h"

namespace fusescope::live {

StageChartLink::StageChartLink(MemoryStageView* stage, LiveBandwidthChart* chart, QObject* parent)
    : QObject(parent), stage_(stage), chart_(chart) {
    connect(stage, &MemoryStageView::positionChanged, this, &StageChartLink::showPosition);
    connect(stage, &MemoryStageView::timelinesChanged, this, [this] {
        refreshNote();
        if (stage_) showPosition(stage_->position());
    });
    connect(chart, &LiveBandwidthChart::timeClicked, this, &StageChartLink::seekToClockNs);
    refreshNote();
}

void StageChartLink::refreshNote() {
    if (!stage_ || !chart_) return;
    bool anyClock = false;
    bool allClocks = stage_->paneCount() > 0;
    for (int side = 0; side < stage_->paneCount(); ++side) {
        anyClock = anyClock || stage_->hasRunClock(side);
        allClocks = allClocks && stage_->hasRunClock(side);
    }
    // Say plainly when the cursor cannot follow (or follows only one side of) the animation.
    if (stage_->paneCount() == 0 || allClocks)
        chart_->setCursorNote(allClocks ? tr("cursor: the memory stage's position (the median "
                                             "repetition it plays)")
                                        : QString());
    else if (anyClock)
        chart_->setCursorNote(tr("cursor shown for the runs with a device timeline only"));
    else
        chart_->setCursorNote(
            tr("no cursor: the memory stage plays per-kernel medians, not a "
               "device timeline"));
}

void StageChartLink::showPosition(qint64 stageNs) {
    if (!stage_ || !chart_) return;
    for (int side = 0; side < LiveBandwidthChart::kCursorCount; ++side) {
        if (!stage_->hasRunClock(side)) {
            chart_->hideCursor(side);
            continue;
        }
        chart_->setCursor(side, stage_->toRunClockNs(side, stageNs), stage_->sideLabel(side));
    }
}

int StageChartLink::sideForClockNs(qint64 clockNs) const {
    if (!stage_) return -1;
    int nearest = -1;
    qint64 nearestDistance = std::numeric_limits<qint64>::max();
    for (int side = 0; side < stage_->paneCount(); ++side) {
        if (!stage_->hasRunClock(side)) continue;
        const auto [start, end] = stage_->runClockKernelSpan(side);
        const qint64 distance = clockNs < start ? start - clockNs
                                : clockNs > end ? clockNs - end
                                                : 0;
        if (distance < nearestDistance) {
            nearest = side;
            nearestDistance = distance;
        }
    }
    return nearest;
}

void StageChartLink::seekToClockNs(qint64 clockNs) {
    const int side = sideForClockNs(clockNs);
    if (side < 0 || !stage_) return;
    stage_->seekRunClock(side, clockNs);
}

}  // namespace fusescope::live

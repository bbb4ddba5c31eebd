#pragma once
// Moves the memory stage and the live bandwidth chart together: while the stage plays, the chart
// shows a cursor per run at the animation's position (stage time mapped to the run's clock,
// which is the samples' clock); a press or drag on the chart seeks the stage there. Cursor moves
// are coalesced by the chart to one per frame.
#include <QObject>
#include <QPointer>

namespace fusescope {
class MemoryStageView;
}

namespace fusescope::live {

class LiveBandwidthChart;

class StageChartLink : public QObject {
    Q_OBJECT
  public:
    StageChartLink(MemoryStageView* stage, LiveBandwidthChart* chart, QObject* parent = nullptr);

    // The stage side a chart time belongs to: the one whose kernels span it, else the nearest;
    // -1 when no side has a run clock.
    int sideForClockNs(qint64 clockNs) const;

  public slots:
    void showPosition(qint64 stageNs);
    void seekToClockNs(qint64 clockNs);

  private:
    void refreshNote();

    QPointer<MemoryStageView> stage_;
    QPointer<LiveBandwidthChart> chart_;
};

}  // namespace fusescope::live

#include "ui/window/plugged_views.h"
#include "ui/window/tab_room.h"

#include <QEvent>
#include <QPointer>
#include <QSettings>
#include <QSplitter>
#include <QTabWidget>
#include <QTimer>
#include <algorithm>
#include <limits>
#include <memory>
#include <optional>

#include "ui/charts/charts.h"
#include "ui/export/export_text.h"
#include "ui/window/main_window.h"
#include "worker/run_controller.h"

#include "live/live_bandwidth_chart.h"
#include "live/live_recording_feed.h"
#include "live/stage_chart_link.h"
#include "ui/stage/memory_stage_view.h"

namespace fusescope {
namespace {

// The main allocation chart draws the allocation tracker's host-clock events, a clock the stage
// does not share: the stage's position is placed proportionally on each shown run's span from
// its first allocation to its last free, and the chart says the cursor is approximate. A press
// or drag there seeks the stage the same way back. Moves are coalesced to one per frame.
class AllocationChartCursor : public QObject {
  public:
    AllocationChartCursor(ChartView* chart, MemoryStageView* stage)
        : QObject(chart), chart_(chart), stage_(stage) {
        frame_.setSingleShot(true);
        frame_.setInterval(16);
        connect(&frame_, &QTimer::timeout, this, &AllocationChartCursor::draw);
        connect(stage, &MemoryStageView::positionChanged, this, [this] {
            if (!frame_.isActive()) frame_.start();
        });
        // After the chart's queued rebuild (which removes every item), draw the cursor again.
        connect(stage, &MemoryStageView::timelinesChanged, this,
                [this] { QTimer::singleShot(0, this, &AllocationChartCursor::draw); });
        chart->setProperty("fusescopeClickSeeks", true);  // the left button seeks, not pans
        connect(chart, &QCustomPlot::mousePress, this, &AllocationChartCursor::seekAt);
        connect(chart, &QCustomPlot::mouseMove, this, &AllocationChartCursor::seekAt);
        chart->installEventFilter(this);  // a theme chosen later recolours the note
    }

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        // The event first: during the chart's destruction its children send events here, and
        // the QPointer would downcast a half-destroyed object.
        if (event->type() == QEvent::PaletteChange && watched == chart_ && note_)
            note_->setTextColor(chart_->palette().color(QPalette::WindowText));
        return QObject::eventFilter(watched, event);
    }

  private:
    struct Span {
        double firstMs = 0.0;
        double lastMs = 0.0;
    };
    // The side's run on the chart's axis (ms since the earliest allocation of any run).
    std::optional<Span> spanOf(int side) const {
        const model::Recording& recording = chart_->recording();
        const int run = stage_->shownRunIndex(side);
        if (run < 0 || run >= model::runCount(recording)) return std::nullopt;
        std::int64_t origin = std::numeric_limits<std::int64_t>::max();
        for (const model::VariantResult& each : recording.runs)
            for (const fusescope::AllocationEvent& event : each.allocations)
                origin = std::min(origin, event.timeNs);
        std::int64_t first = std::numeric_limits<std::int64_t>::max();
        std::int64_t last = std::numeric_limits<std::int64_t>::min();
        for (const fusescope::AllocationEvent& event : recording.runs[run].allocations) {
            first = std::min(first, event.timeNs);
            last = std::max(last, event.timeNs);
        }
        if (last <= first) return std::nullopt;
        return Span{(first - origin) * 1e-6, (last - origin) * 1e-6};
    }
    qint64 sideEndNs(int side) const {
        return std::max<qint64>(1, stage_->stage()->renderer().timeline(side).endNs);
    }

    void draw() {
        if (!chart_ || !stage_) return;
        bool drawn = false;
        for (int side = 0; side < 2; ++side) {
            const std::optional<Span> span =
                side < stage_->paneCount() ? spanOf(side) : std::nullopt;
            if (!span) {
                if (lines_[side]) lines_[side]->setVisible(false);
                continue;
            }
            const double fraction = std::clamp(
                static_cast<double>(stage_->position()) / static_cast<double>(sideEndNs(side)), 0.0,
                1.0);
            const double ms = span->firstMs + fraction * (span->lastMs - span->firstMs);
            if (!lines_[side]) lines_[side] = makeLine(side);
            lines_[side]->point1->setCoords(ms, 0.0);
            lines_[side]->point2->setCoords(ms, 1.0);
            lines_[side]->setVisible(true);
            drawn = true;
        }
        if (drawn && !note_) {
            // A row of its own under the chart: the note never covers the allocations.
            note_ = new QCPTextElement(chart_);
            note_->setTextColor(chart_->palette().color(QPalette::WindowText));
            note_->setText(
                tr("approximate cursor · the stage's position scaled onto each run's "
                   "allocations (host clock)"));
            setExportText(note_, QString());  // a slide shows no stage to follow
            chart_->plotLayout()->addElement(chart_->plotLayout()->rowCount(), 0, note_);
            chart_->plotLayout()->setRowStretchFactor(chart_->plotLayout()->rowCount() - 1, 0.001);
            chart_->replot(QCustomPlot::rpQueuedReplot);
        }
        if (note_) note_->setVisible(drawn);
        cursorLayer()->replot();
    }

    QCPLayer* cursorLayer() const {
        if (QCPLayer* layer = chart_->layer(QStringLiteral("cursor"))) return layer;
        chart_->addLayer(QStringLiteral("cursor"), chart_->layer(QStringLiteral("legend")),
                         QCustomPlot::limAbove);
        QCPLayer* layer = chart_->layer(QStringLiteral("cursor"));
        layer->setMode(QCPLayer::lmBuffered);
        return layer;
    }

    QCPItemStraightLine* makeLine(int side) const {
        auto* line = new QCPItemStraightLine(chart_);
        line->setLayer(cursorLayer());
        for (QCPItemPosition* point : {line->point1, line->point2})
            point->setTypeY(QCPItemPosition::ptAxisRectRatio);
        line->setPen(QPen(side == 0 ? QColor(148, 103, 189) : QColor(23, 190, 207), 2.0));
        markScreenOnly(line);
        return line;
    }

    void seekAt(QMouseEvent* event) {
        if (!chart_ || !stage_ || !(event->buttons() & Qt::LeftButton)) return;
        if (!chart_->axisRect()->rect().contains(event->position().toPoint())) return;
        const double ms = chart_->xAxis->pixelToCoord(event->position().x());
        for (int side = 0; side < stage_->paneCount(); ++side) {
            const std::optional<Span> span = spanOf(side);
            if (!span || ms < span->firstMs || ms > span->lastMs) continue;
            const double fraction = (ms - span->firstMs) / (span->lastMs - span->firstMs);
            stage_->seek(static_cast<qint64>(fraction * static_cast<double>(sideEndNs(side))));
            return;
        }
    }

    QPointer<ChartView> chart_;
    QPointer<MemoryStageView> stage_;
    QPointer<QCPItemStraightLine> lines_[2];
    QPointer<QCPTextElement> note_;
    QTimer frame_;
};

}  // namespace

void addPluggedViews(MainWindow& window) {
    auto* stage = new MemoryStageView;
    stage->setObjectName(QStringLiteral("memoryStage"));
    // Speed and lesson mode are remembered with the window's other choices.
    stage->setSettings(window.settings());
    window.viewTabs()->addTab(stage, QObject::tr("Memory stage"));
    giveRoomWhileShown(window.viewTabs(), stage);
    QObject::connect(&window, &MainWindow::recordingChanged, stage, &MemoryStageView::setRecording);
    for (ChartView* chart : window.charts())
        if (qobject_cast<AllocationChart*>(chart)) new AllocationChartCursor(chart, stage);

    auto* live = new live::LiveBandwidthChart;
    live->setObjectName(QStringLiteral("liveBandwidth"));
    window.chartTabs()->addTab(live, QObject::tr("Bandwidth over time"));
    RunController* controller = window.runController();
    QObject::connect(controller, &RunController::runStarted, live, [live] { live->clear(); });
    QObject::connect(
        controller, &RunController::samplesArrived, live,
        [live, &window](const QString& variant, const QVector<BandwidthSample>& samples,
                        const QVector<fusescope::TimelineSpan>& spans) {
            if (window.runResultsHeld()) return;
            live::appendToChart(*live, {samples.constData(), std::size_t(samples.size())},
                                {spans.constData(), std::size_t(spans.size())}, variant);
        });
    // A finished run or an opened recording replaces the streamed batches with the whole run.
    QObject::connect(&window, &MainWindow::recordingChanged, live,
                     [live](const model::Recording& recording) {
                         live->clear();
                         live::showRecording(*live, recording);
                     });
    // The View menu's value axes, as for the bytes and time charts.
    live->setValueScale(window.valueScale());
    QObject::connect(&window, &MainWindow::valueScaleChanged, live,
                     &live::LiveBandwidthChart::setValueScale);
    new live::StageChartLink(stage, live, live);
}

}  // namespace fusescope

#include "ui/plugged_views.h"

#include <QTabWidget>

#include "ui/main_window.h"
#include "worker/run_controller.h"

#ifdef FUSESCOPE_HAVE_STAGE_VIEW
#include "ui/stage/memory_stage_view.h"
#endif
#ifdef FUSESCOPE_HAVE_LIVE_CHART
#include "live/live_bandwidth_chart.h"
#include "live/live_recording_feed.h"
#endif

namespace fusescope {

void addPluggedViews(MainWindow& window) {
#ifdef FUSESCOPE_HAVE_STAGE_VIEW
    auto* stage = new MemoryStageView;
    stage->setObjectName(QStringLiteral("memoryStage"));
    window.viewTabs()->addTab(stage, QObject::tr("Memory stage"));
    QObject::connect(&window, &MainWindow::recordingChanged, stage, &MemoryStageView::setRecording);
#endif
#ifdef FUSESCOPE_HAVE_LIVE_CHART
    auto* live = new live::LiveBandwidthChart;
    live->setObjectName(QStringLiteral("liveBandwidth"));
    window.chartTabs()->addTab(live, QObject::tr("Bandwidth over time"));
    RunController* controller = window.runController();
    QObject::connect(controller, &RunController::runStarted, live, [live] { live->clear(); });
    QObject::connect(controller, &RunController::samplesArrived, live,
                     [live](const QString& variant, const QVector<model::SampleRecord>& samples,
                            const QVector<model::TimelineSpan>& spans) {
                         live::appendToChart(*live, samples, spans, variant);
                     });
    // A finished run or an opened recording replaces the streamed batches with the whole run.
    QObject::connect(&window, &MainWindow::recordingChanged, live,
                     [live](const model::Recording& recording) {
                         live->clear();
                         live::showRecording(*live, recording);
                     });
#endif
    (void)window;
}

}  // namespace fusescope

#include "ui/expression/expression_wiring.h"

#include <QStatusBar>
#include <QTabWidget>

#include "model/expression_preview.h"
#include "ui/expression/expression_view.h"
#include "ui/jobs/cpu_speeds_gate.h"
#include "ui/run/run_panel.h"
#include "ui/window/main_window.h"
#include "ui/window/tab_room.h"

namespace fusescope {
namespace {

void runExpression(MainWindow& window, ExpressionView& view, const QString& text, quint64 n,
                   int vectorWidth) {
    if (window.isRunning()) {
        window.statusBar()->showMessage(QObject::tr("A run is going: cancel it first."), 5000);
        return;
    }
    Result<RunRequest> request = model::expressionRunRequest(text, n, vectorWidth);
    if (!request) {
        const QString message = QString::fromStdString(request.status().message());
        view.showProblem(message);
        window.statusBar()->showMessage(message, 5000);
        return;
    }
    // The run panel's backend, GPU, repeats, threads and measuring; the expression's pipeline,
    // problem and every variant.
    RunCommand command = window.runPanel()->command();
    command.request.pipeline = request->pipeline;
    command.request.variants.clear();
    command.request.problem = request->problem;
    // As the run panel's Run: a long CPU run is asked about first. Run waits while this CPU's
    // speeds are measured for that question.
    window.startAfterAsking(command);
    view.setRunning(window.isRunning());
}

}  // namespace

ExpressionView* addExpressionView(MainWindow& window) {
    auto* view = new ExpressionView;
    view->setObjectName(QStringLiteral("expressionView"));
    window.chartTabs()->addTab(view, QObject::tr("Expression lab"));
    giveRoomWhileShown(window.chartTabs(), view, true);
    QObject::connect(&window, &MainWindow::runStateChanged, view, &ExpressionView::setRunning);
    QObject::connect(window.cpuSpeedsGate(), &CpuSpeedsGate::settled, view,
                     [&window, view] { view->setRunning(window.isRunning()); });
    QObject::connect(view, &ExpressionView::runRequested, &window,
                     [&window, view](const QString& text, quint64 n, int vectorWidth) {
                         runExpression(window, *view, text, n, vectorWidth);
                     });
    return view;
}

void showExpressionView(MainWindow& window) {
    auto* view = window.findChild<ExpressionView*>(QStringLiteral("expressionView"));
    if (!view) return;
    window.showViews();
    window.chartTabs()->setCurrentWidget(view);
}

}  // namespace fusescope

#include "ui/lesson/lesson_launch_window.h"

#include <QAction>
#include <QFileDialog>
#include <QMessageBox>
#include <QPointer>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>

#include "model/pipeline_catalog.h"
#include "model/problem_options.h"
#include "ui/lab/lab_view.h"
#include "ui/lesson/lesson_window.h"
#include "ui/window/main_window.h"

namespace fusescope {
namespace {

QString progressFolder() {
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
           QStringLiteral("/lessons");
}

// The one lesson window of the main window: a newly opened plan replaces the last.
constexpr char kLessonWindowName[] = "fusescopeLessonWindow";

// The window's tab for a step's view (docs/lesson-plans.md), by the words of its title.
void showView(MainWindow& window, const QString& view) {
    const bool tiles = view == QLatin1String("tiles");
    const bool chart = view == QLatin1String("charts") || tiles;
    const QString title = view == QLatin1String("stage")         ? QObject::tr("Memory stage")
                          : view == QLatin1String("measurement") ? QObject::tr("Model vs measured")
                          : tiles                                ? QObject::tr("Tile explorer")
                          : chart                                ? QObject::tr("Run charts")
                                                                 : QObject::tr("Results");
    QTabWidget* tabs = chart ? window.chartTabs() : window.viewTabs();
    for (int index = 0; index < tabs->count(); ++index)
        if (tabs->tabText(index).remove(QLatin1Char('&')) == title) tabs->setCurrentIndex(index);
}

// The element count the step's problem names (N), or 0 where it names none.
quint64 stepElementCount(const model::LessonStep& step) {
    const model::ProblemText& text = step.show.problem;
    if (text.dimensions.isEmpty() && text.preset.isEmpty()) return 0;  // else the defaults
    const PipelineSpec* pipeline = findPipeline(step.show.pipeline.toStdString());
    if (!pipeline) return 0;
    const Result<Problem> problem = model::problemFromText(*pipeline, text);
    return problem ? problem->dimension(kElementCountDimension) : 0;
}

}  // namespace

QString openLessonOver(MainWindow& window, const QString& planPath, int step) {
    QString error;
    std::unique_ptr<LessonDriver> driver = LessonDriver::open(planPath, progressFolder(), &error);
    if (!driver) return error;
    driver->setRevealShown([&window](const QString& path, const QString& view) {
        if (path.isEmpty())
            window.showHeldRunResults();
        else
            window.openRecording(path);
        showView(window, view);
    });
    if (QWidget* previous = window.findChild<QWidget*>(QLatin1String(kLessonWindowName)))
        previous->deleteLater();
    auto* lesson = new LessonWindow(std::move(driver), &window);
    lesson->setObjectName(QLatin1String(kLessonWindowName));
    if (auto* lab = window.findChild<LabView*>()) {
        LessonDriver* lessonDriver = lesson->driver();
        lessonDriver->setKernelShown([&window, lab, lessonDriver](const QString& path, bool run) {
            if (const QString refused = lab->openKernel(path); !refused.isEmpty()) {
                window.statusBar()->showMessage(refused);
                return false;
            }
            const model::LessonPlan& plan = lessonDriver->plan();
            const int current = lessonDriver->session().current;
            if (current >= 0 && current < plan.steps.size())
                if (const quint64 n = stepElementCount(plan.steps[current]); n != 0)
                    if (const QString refused = lab->setElementCount(n); !refused.isEmpty())
                        window.statusBar()->showMessage(refused);
            window.chartTabs()->setCurrentWidget(lab);
            if (!run) return true;
            // A run still going (the last step's) keeps the Lab: this one does not start.
            if (lab->busy()) return false;
            lab->run();
            return lab->busy();
        });
        QObject::connect(lab, &LabView::recordingReady, lessonDriver,
                         &LessonDriver::kernelRunFinished);
        QObject::connect(lab, &LabView::runFinished, lessonDriver,
                         [lessonDriver](bool ok, const QString& message) {
                             if (!ok) lessonDriver->kernelRunFailed(message);
                         });
    }
    window.setRunResultsHeld([lesson = QPointer<LessonWindow>(lesson)] {
        return lesson && lesson->driver()->holdsRunResults();
    });
    const int start = step >= 0 ? step : lesson->driver()->current();
    // Live runs wait for the backends: whether a GPU is usable decides what runs live.
    auto begin = [&window, lesson, start] {
        lesson->driver()->setRunController(window.runController(),
                                           window.backendSummary().cudaUsable);
        lesson->driver()->goTo(start);
    };
    if (window.backendsKnown())
        begin();
    else
        QObject::connect(&window, &MainWindow::backendsProbed, lesson, begin,
                         Qt::SingleShotConnection);
    QObject::connect(lesson, &LessonWindow::left, &window, [&window] {
        window.raise();
        window.activateWindow();
    });
    auto* present = new QAction(QObject::tr("Presenter mode"), lesson);
    present->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F5));
    present->setShortcutContext(Qt::ApplicationShortcut);
    QObject::connect(present, &QAction::triggered, lesson, &LessonWindow::present);
    window.addAction(present);
    lesson->present();
    return {};
}

void openLessonDialog(MainWindow& window) {
    const QStringList folders = model::shippedLessonFolders();
    QString start = folders.isEmpty() ? QString() : folders.constFirst();
    for (const QString& folder : folders)
        if (QFileInfo(folder).isDir()) {
            start = folder;
            break;
        }
    const QString path =
        QFileDialog::getOpenFileName(&window, QObject::tr("Open lesson plan"), start,
                                     QObject::tr("Lesson plans (*.lesson.md *.md);;All files (*)"));
    if (path.isEmpty()) return;
    if (const QString error = openLessonOver(window, path, -1); !error.isEmpty())
        QMessageBox::warning(&window, QObject::tr("Open lesson plan"), error);
}

}  // namespace fusescope

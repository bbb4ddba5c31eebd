// A lesson over the main window, offscreen: a step that runs live for a question keeps the run's
// results out of the window's own views (its recording and results table) until the class has
// answered and the step is revealed; the reveal puts them there. A limit question's reveal opens
// the tile sweep that measured the tile in the Tile explorer.
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>

#include "lesson_main_window.h"
#include "ui/lesson/lesson_launch_window.h"
#include "ui/lesson/lesson_window.h"
#include "ui/results/results_model.h"
#include "worker/run_controller.h"

using namespace fusescope;

class LessonHeldResultsTest : public QObject {
    Q_OBJECT
  private slots:
    void liveResultsWaitForTheReveal();
    void aTileQuestionsRevealOpensItsTileSweepInTheExplorer();
};

void LessonHeldResultsTest::liveResultsWaitForTheReveal() {
    LessonMainWindow main;
    QVERIFY(main.folder.isValid());
    MainWindow& window = main.window;
    QSignalSpy finished(window.runController(), &RunController::runFinished);
    QCOMPARE(
        openLessonOver(window, QStringLiteral(FUSESCOPE_LESSONS_DIR "/fused-kernels.lesson.md"), 0),
        QString());
    auto* lesson = window.findChild<LessonWindow*>();
    QVERIFY(lesson);
    LessonDriver& driver = *lesson->driver();
    QVERIFY(finished.wait(120000));
    QVERIFY(driver.dataReady());
    QVERIFY(driver.plan().steps[0].question);
    // The class has not answered: nothing of the run in the window.
    QVERIFY(window.recording().runs.empty());
    QCOMPARE(window.variantModel()->rowCount(), 0);
    QCOMPARE(driver.addAnswer(QStringLiteral("4 passes"), 2), QString());
    QVERIFY(window.recording().runs.empty());
    QCOMPARE(driver.reveal(), QString());
    QCOMPARE(window.recording().runs.size(), driver.plan().steps[0].show.variants.size());
    QCOMPARE(window.variantModel()->rowCount(),
             static_cast<int>(driver.plan().steps[0].show.variants.size()));
}

void LessonHeldResultsTest::aTileQuestionsRevealOpensItsTileSweepInTheExplorer() {
    LessonMainWindow main;
    QVERIFY(main.folder.isValid());
    QVERIFY(main.probed());
    MainWindow& window = main.window;
    const QString plan = QStringLiteral(FUSESCOPE_LESSONS_DIR "/fused-kernels.lesson.md");
    QCOMPARE(openLessonOver(window, plan, 5), QString());
    auto* lesson = window.findChild<LessonWindow*>();
    QVERIFY(lesson);
    LessonDriver& driver = *lesson->driver();
    const model::LessonStep& step = driver.plan().steps[5];
    QVERIFY(step.question && step.question->kind == model::QuestionKind::Limit);
    // On a GPU the step's MLP runs live first; its numbers are in once the run ends.
    QTRY_VERIFY_WITH_TIMEOUT(driver.dataReady(), 120000);
    QCOMPARE(driver.addAnswer(QStringLiteral("registers"), 5), QString());
    QCOMPARE(driver.reveal(), QString());
    QCOMPARE(window.chartTabs()->tabText(window.chartTabs()->currentIndex()).remove('&'),
             QStringLiteral("Tile explorer"));
    QVERIFY2(window.windowTitle().startsWith(QStringLiteral("tiles-mlp-classroom-bf16-h200.json")),
             qPrintable(window.windowTitle()));
}

QTEST_MAIN(LessonHeldResultsTest)
#include "lesson_held_results_test.moc"

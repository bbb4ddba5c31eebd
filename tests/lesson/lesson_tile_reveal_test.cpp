// A limit question over the main window, offscreen: the reveal opens the tile sweep that
// measured the tile in the Tile explorer, beside the presenter's answer.
#include <QTabWidget>
#include <QTest>

#include "lesson_main_window.h"
#include "ui/lesson/lesson_launch_window.h"
#include "ui/lesson/lesson_window.h"

using namespace fusescope;

class LessonTileRevealTest : public QObject {
    Q_OBJECT
  private slots:
    void theRevealOpensTheTileSweepInTheExplorer();
};

void LessonTileRevealTest::theRevealOpensTheTileSweepInTheExplorer() {
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

QTEST_MAIN(LessonTileRevealTest)
#include "lesson_tile_reveal_test.moc"

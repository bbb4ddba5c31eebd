// The "SwiGLU: apply fusion" plan over the main window, offscreen: its kernel steps open the
// starter, then the lab's solution, in the Lab with the kernel's text in the editor. Without a
// GPU the step says that running it needs a GPU and its recording holds the numbers; on a GPU
// the Lab's own Run times the kernel beside the shipped variants and the reveal shows its run.
#include <QLabel>
#include <QPushButton>
#include <QTabWidget>
#include <QTest>

#include "lesson_main_window.h"
#include "model/lab/learner_kernel.h"
#include "ui/lab/lab_editor.h"
#include "ui/lab/lab_view.h"
#include "ui/lesson/lesson_launch_window.h"
#include "ui/lesson/lesson_window.h"

using namespace fusescope;

class LessonLabTest : public QObject {
    Q_OBJECT
  private slots:
    void kernelStepsOpenTheirKernelInTheLab();
};

namespace {

QString kernelSource(const QString& path) {
    const Result<model::LearnerKernel> kernel = model::loadLearnerKernel(path);
    return kernel ? kernel->source : QString();
}

}  // namespace

void LessonLabTest::kernelStepsOpenTheirKernelInTheLab() {
    qputenv("FUSESCOPE_CLI", FUSESCOPE_CLI_PATH);
    LessonMainWindow main;
    QVERIFY(main.folder.isValid());
    MainWindow& window = main.window;
    window.resize(1280, 720);
    window.show();
    QVERIFY(main.probed());
    auto* lab = window.findChild<LabView*>();
    QVERIFY(lab);
    QSignalSpy labRecording(lab, &LabView::recordingReady);
    QCOMPARE(openLessonOver(
                 window, QStringLiteral(FUSESCOPE_LESSONS_DIR "/swiglu-apply-fusion.lesson.md"), 0),
             QString());
    auto* lesson = window.findChild<LessonWindow*>();
    QVERIFY(lesson);
    LessonDriver& driver = *lesson->driver();
    const model::LessonStep& starter = driver.plan().steps[0];
    QVERIFY(!starter.show.kernelPath.isEmpty());
    QCOMPARE(window.chartTabs()->currentWidget(), lab);
    QCOMPARE(lab->editor()->text(), kernelSource(starter.show.kernelPath));
    QVERIFY(!lab->editor()->text().isEmpty());

    if (!window.backendSummary().cudaUsable) {
        // Said plainly, in the lesson and in the Lab; the step's recording holds the numbers.
        QVERIFY2(driver.view().source.contains(QStringLiteral("running it needs a GPU")),
                 qPrintable(driver.view().source));
        QVERIFY(lab->gpuNote()->text().startsWith(QStringLiteral("Running needs a GPU")));
        QVERIFY(!lab->runButton()->isEnabled());
        QVERIFY(driver.dataReady());
    } else {
        // The Lab's own Run: the kernel beside the shipped variants, in one recording.
        QVERIFY2(driver.view().source.startsWith(
                     QStringLiteral("runs the kernel lab_swiglu_scratch.cu live on the GPU")),
                 qPrintable(driver.view().source));
        QVERIFY(labRecording.wait(300000));
        QVERIFY(driver.dataReady());
        QCOMPARE(driver.addAnswer(QStringLiteral("5 passes"), 3), QString());
        QCOMPARE(driver.reveal(), QString());
        // One line per shipped variant of the step, and one for the kernel's own run.
        QCOMPARE(driver.view().numbers.size(), starter.show.variants.size() + 1);
    }

    // The next step opens the lab's solution.
    driver.goTo(1);
    const model::LessonStep& solution = driver.plan().steps[1];
    QVERIFY(solution.show.kernelPath != starter.show.kernelPath);
    QCOMPARE(lab->editor()->text(), kernelSource(solution.show.kernelPath));
}

QTEST_MAIN(LessonLabTest)
#include "lesson_lab_test.moc"

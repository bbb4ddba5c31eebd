// The "SwiGLU: apply fusion" plan over the main window, offscreen: its kernel steps open the
// starter, then the lab's solution, in the Lab with the kernel's text in the editor. Without a
// GPU the step says that running it needs a GPU and its recording holds the numbers; on a GPU
// the Lab's own Run times the kernel beside the shipped variants and the reveal shows its run.
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QPushButton>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include "lesson_main_window.h"
#include "model/lab/learner_kernel.h"
#include "model/lab/learner_run.h"
#include "model/recording_json.h"
#include "pipelines/runtime_registry.h"
#include "ui/lab/lab_editor.h"
#include "ui/lab/lab_view.h"
#include "ui/lesson/lesson_launch_window.h"
#include "ui/lesson/lesson_window.h"
#include "worker/run_controller.h"

using namespace fusescope;

class LessonLabTest : public QObject {
    Q_OBJECT
  private slots:
    // Opening a step's lab recording adds "your kernel" to SwiGLU; each test starts without it.
    void cleanup() { (void)unregisterPipeline("swiglu"); }
    void kernelStepsOpenTheirKernelInTheLab();
    void theLabsRunHoldsTheStepsNumbers();
    void aKernelStepSizesTheLabByItsProblem();
    void withoutAGpuTheSolutionStepAnswersFromTheSolutionsRecording();
};

namespace {

QString kernelSource(const QString& path) {
    const Result<model::LearnerKernel> kernel = model::loadLearnerKernel(path);
    return kernel ? kernel->source : QString();
}

// The main window at 1280x720 with its backends probed, and its Lab; null where either fails.
LabView* shownLab(LessonMainWindow& main) {
    if (!main.folder.isValid()) return nullptr;
    main.window.resize(1280, 720);
    main.window.show();
    if (!main.probed()) return nullptr;
    return main.window.findChild<LabView*>();
}

const QString kSwigluLabPlan =
    QStringLiteral(FUSESCOPE_LESSONS_DIR "/swiglu-apply-fusion.lesson.md");

// A plan's driver, saving no progress, whose live runs go through `controller` (as on a GPU or
// not); null, with the reason in `error`, where the plan does not open.
std::unique_ptr<LessonDriver> openDriver(const QString& planPath, RunController& controller,
                                         bool onAGpu, QString* error) {
    std::unique_ptr<LessonDriver> driver = LessonDriver::open(planPath, QString(), error);
    if (driver) driver->setRunController(&controller, onAGpu);
    return driver;
}

}  // namespace

void LessonLabTest::kernelStepsOpenTheirKernelInTheLab() {
    // The CLI the test was started with (a bundle on the GPU machine), else the build tree's.
    if (qEnvironmentVariableIsEmpty("FUSESCOPE_CLI")) qputenv("FUSESCOPE_CLI", FUSESCOPE_CLI_PATH);
    LessonMainWindow main;
    MainWindow& window = main.window;
    LabView* lab = shownLab(main);
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

// The driver as on a GPU, with the Lab stood in for: the Lab's recording holds the step's
// numbers, the kernel's own run beside the step's variants; a Lab still busy, or a run that
// failed, leaves the step's recording in its place, and says so.
void LessonLabTest::theLabsRunHoldsTheStepsNumbers() {
    RunController controller;
    QString error;
    const auto driver = openDriver(kSwigluLabPlan, controller, true, &error);
    QVERIFY2(driver, qPrintable(error));
    QStringList opened;
    bool labStarts = true;
    driver->setKernelShown([&opened, &labStarts](const QString& path, bool run) {
        opened << QFileInfo(path).fileName() + (run ? QStringLiteral(" run") : QString());
        return labStarts;
    });
    driver->goTo(0);
    const model::LessonStep& starter = driver->plan().steps[0];
    QCOMPARE(opened, QStringList{QStringLiteral("lab_swiglu_scratch.cu run")});
    QVERIFY(!driver->dataReady());
    QVERIFY(driver->view().status.startsWith(QStringLiteral("running live: runs the kernel")));

    // What the Lab's run writes: the shipped variants, and the run that launched the kernel.
    Result<model::Recording> recording = model::loadRecording(starter.show.recordingPath);
    QVERIFY(recording.isOk());
    model::VariantResult learner = recording->runs.front();
    learner.variant = "the learner's kernel";
    learner.kernels = {fusescope::KernelResult{}};
    learner.kernels.front().name =
        model::loadLearnerKernel(starter.show.kernelPath)->entry.toStdString();
    recording->runs.push_back(learner);
    QTemporaryDir folder;
    const QString path = folder.filePath(QStringLiteral("lab-run.json"));
    QVERIFY(model::saveRecording(*recording, path).isOk());
    driver->kernelRunFinished(path);
    QVERIFY(driver->dataReady());
    QCOMPARE(driver->addAnswer(QStringLiteral("5"), 2), QString());
    QCOMPARE(driver->reveal(), QString());
    const QStringList numbers = driver->view().numbers;
    QCOMPARE(numbers.size(), starter.show.variants.size() + 1);
    QVERIFY2(numbers.constLast().startsWith(QStringLiteral("the learner's kernel: ")),
             qPrintable(numbers.join(QLatin1Char('\n'))));

    // A Lab still busy with the last run: the step's recording, and why.
    labStarts = false;
    driver->goTo(1);
    QVERIFY(driver->dataReady());
    QVERIFY2(
        driver->view().status.startsWith(QStringLiteral("the Lab is busy with an earlier run")),
        qPrintable(driver->view().status));
    // A run that failed in the Lab: the same.
    labStarts = true;
    driver->goTo(0);
    QVERIFY(!driver->dataReady());
    driver->kernelRunFailed(QStringLiteral("the run's process crashed"));
    QVERIFY(driver->dataReady());
    QVERIFY2(driver->view().status.contains(QStringLiteral("the run's process crashed")),
             qPrintable(driver->view().status));

    // Without a GPU, a recording made with the kernel elsewhere (beside the plan) lists the
    // kernel's run beside the step's variants too.
    const QString planPath = folder.filePath(QStringLiteral("lab.lesson.md"));
    QFile plan(planPath);
    QVERIFY(plan.open(QIODevice::WriteOnly));
    plan.write(
        "# Lab\n\n## The starter\nkernel: lab_swiglu_scratch.cu\npipeline: swiglu\n"
        "variants: scratch, fused\nrecording: lab-run.json\nquestion: Passes?\n"
        "unit: passes\nof: scratch\nreveal: passes\n");
    plan.close();
    const std::unique_ptr<LessonDriver> elsewhere = openDriver(planPath, controller, false, &error);
    QVERIFY2(elsewhere, qPrintable(error));
    elsewhere->setKernelShown([](const QString&, bool run) { return !run; });
    elsewhere->goTo(0);
    QVERIFY(elsewhere->dataReady());
    QCOMPARE(elsewhere->addAnswer(QStringLiteral("5"), 1), QString());
    QCOMPARE(elsewhere->reveal(), QString());
    QCOMPARE(elsewhere->view().numbers.size(), 3);
    QVERIFY(elsewhere->view().numbers.constLast().startsWith(
        QStringLiteral("the learner's kernel: 5 passes")));
}

// A kernel step's problem (N) is the size the Lab runs the kernel at; a step without one
// leaves the Lab's size as the learner set it.
void LessonLabTest::aKernelStepSizesTheLabByItsProblem() {
    LessonMainWindow main;
    MainWindow& window = main.window;
    LabView* lab = shownLab(main);
    QVERIFY(lab);
    const QString planPath = main.folder.filePath(QStringLiteral("sized.lesson.md"));
    QFile plan(planPath);
    QVERIFY(plan.open(QIODevice::WriteOnly));
    plan.write(
        "# Sized\n\n## Small\nkernel: lab_swiglu_scratch.cu\npipeline: swiglu\n"
        "dimensions: N=2^20\nvariants: scratch, fused\n"
        "recording: h200-swiglu-2e26.fusescope.json\n"
        "question: Passes?\nunit: passes\nof: scratch\nreveal: passes\n\n"
        "## Unsized\nkernel: lab_swiglu_fused.cu\n"
        "recording: h200-swiglu-2e26.fusescope.json\n"
        "question: Passes?\nunit: passes\nof: fused\nreveal: passes\n");
    plan.close();
    QVERIFY(lab->elementCount() != (quint64{1} << 20));
    QCOMPARE(openLessonOver(window, planPath, 0), QString());
    auto* lesson = window.findChild<LessonWindow*>();
    QVERIFY(lesson);
    QCOMPARE(lab->elementCount(), quint64{1} << 20);
    QCOMPARE(lab->setElementCount(quint64{1} << 18), QString());
    lesson->driver()->goTo(1);
    QCOMPARE(lab->elementCount(), quint64{1} << 18);
    // A size the Lab does not offer is refused in words.
    QVERIFY(!lab->setElementCount(3).isEmpty());
    QCOMPARE(lab->elementCount(), quint64{1} << 18);
}

// Without a GPU the lab solution's step opens the shipped H200 recording of the solution, run by
// `fusescope-cli run --kernel-file` beside the shipped variants: the reveal shows the solution's
// own run, and the step says which recording it opened.
void LessonLabTest::withoutAGpuTheSolutionStepAnswersFromTheSolutionsRecording() {
    RunController controller;
    QString error;
    const auto driver = openDriver(kSwigluLabPlan, controller, false, &error);
    QVERIFY2(driver, qPrintable(error));
    driver->setKernelShown([](const QString&, bool run) { return !run; });
    driver->goTo(1);
    QCOMPARE(QFileInfo(driver->plan().steps[1].show.kernelPath).fileName(),
             QStringLiteral("lab_swiglu_fused.cu"));
    QVERIFY(driver->dataReady());
    QVERIFY2(driver->view().source.contains(QStringLiteral(
                 "opens the shipped NVIDIA H200 recording h200-swiglu-lab-solution-2e24")),
             qPrintable(driver->view().source));
    QCOMPARE(driver->addAnswer(QStringLiteral("3"), 1), QString());
    QCOMPARE(driver->reveal(), QString());
    const QStringList numbers = driver->view().numbers;
    QCOMPARE(numbers.size(), 3);  // scratch, fused and the solution's own run
    QVERIFY2(
        numbers.constLast().startsWith(model::learnerVariantName() + QStringLiteral(": 3 passes")),
        qPrintable(numbers.join(QLatin1Char('\n'))));
}

QTEST_MAIN(LessonLabTest)
#include "lesson_lab_test.moc"

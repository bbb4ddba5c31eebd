// The lesson on screen, offscreen: the "Fused kernels" plan walked end to end from its
// recordings (every question answered and revealed, the measured value and the reason checked,
// the CSV exported, the progress reopened), a live step on the CPU backend through the window's
// RunController, the keys, and the layout of every step at 1280x720 (run at scale 1, 1.5, 2).
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "expr/expression_pipeline.h"
#include "model/lesson/lesson_reveal.h"
#include "model/recording_json.h"
#include "pipelines/runtime_registry.h"
#include "ui/layout_checks.h"
#include "ui/lesson/lesson_presenter.h"
#include "ui/lesson/lesson_window.h"
#include "worker/run_controller.h"

using namespace fusescope;

namespace {

const QString kPlan = QStringLiteral(FUSESCOPE_LESSONS_DIR "/fused-kernels.lesson.md");

// A prediction of the right kind for a step's question (not necessarily a right one).
QString predictionFor(const model::LessonStep& step) {
    switch (step.question->kind) {
        case model::QuestionKind::Number:
            return QStringLiteral("1");
        case model::QuestionKind::Winner:
            return step.show.variants.constFirst();
        case model::QuestionKind::Order:
            return step.show.variants.join(QStringLiteral(", "));
        case model::QuestionKind::Limit:
            return step.question->choices.constLast();
    }
    return {};
}

QString labelText(const QWidget& window, const QString& startsWith) {
    for (const QLabel* label : window.findChildren<QLabel*>())
        if (label->isVisible() && label->text().startsWith(startsWith)) return label->text();
    return {};
}

bool shows(const QWidget& window, const QString& text) {
    for (const QLabel* label : window.findChildren<QLabel*>())
        if (label->isVisible() && label->text().contains(text)) return true;
    return false;
}

// Wrapped text (plain, rich or Markdown) taller than its label, or a label outside the window.
QStringList presenterProblems(QWidget& window) {
    QStringList problems = testing::labelProblems(window);
    const QRect inside = window.rect();
    for (const QLabel* label : window.findChildren<QLabel*>()) {
        if (!label->isVisible() || label->text().isEmpty()) continue;
        const QRect rect(label->mapTo(&window, QPoint(0, 0)), label->size());
        if (!inside.contains(rect))
            problems << QStringLiteral("'%1' is outside the window").arg(label->text().left(40));
        if (label->wordWrap() && label->heightForWidth(label->width()) > label->height() + 1)
            problems << QStringLiteral("'%1' is cut: %2 px of text in %3")
                            .arg(label->text().left(40))
                            .arg(label->heightForWidth(label->width()))
                            .arg(label->height());
        if (label->font().pixelSize() < kPresenterBodyPixels)
            problems << QStringLiteral("'%1' is %2 px")
                            .arg(label->text().left(40))
                            .arg(label->font().pixelSize());
    }
    return problems;
}

void settle(QWidget& window) {
    window.resize(1280, 720);
    window.show();
    QCoreApplication::processEvents();
    QTest::qWait(20);
}

}  // namespace

class LessonPresenterTest : public QObject {
    Q_OBJECT
  private slots:
    void walksThePlanFromItsRecordings();
    void runsAnElementwiseStepLiveOnTheCpu();
    void keysMoveRevealAndLeave();
    void everyStepFitsAt1280x720();
};

void LessonPresenterTest::walksThePlanFromItsRecordings() {
    QTemporaryDir progress;
    QString error;
    std::unique_ptr<LessonDriver> opened = LessonDriver::open(kPlan, progress.path(), &error);
    QVERIFY2(opened, qPrintable(error));
    LessonWindow window(std::move(opened));
    LessonDriver& driver = *window.driver();
    QStringList shownInWindow;
    driver.setRevealShown([&shownInWindow](const QString& path, const QString& view) {
        shownInWindow << QFileInfo(path).fileName() + QLatin1Char(' ') + view;
    });
    settle(window);
    int questions = 0;
    for (int index = 0; index < driver.plan().steps.size(); ++index) {
        driver.goTo(index);
        const model::LessonStep& step = driver.plan().steps[index];
        QVERIFY2(driver.dataReady(), qPrintable(step.title));
        QVERIFY(shows(window, QStringLiteral("opens the shipped NVIDIA H200 recording")));
        if (!step.question) {
            // Nothing to predict: the text stays, with the step's numbers beside it.
            QVERIFY(shows(window, step.text.section(QLatin1Char(' '), 0, 2)));
            QVERIFY(shows(window, QStringLiteral(" passes · ")));
            continue;
        }
        ++questions;
        // Hidden until the class has answered.
        QVERIFY(!shows(window, QStringLiteral("Measured:")));
        QVERIFY(!driver.reveal().isEmpty());
        window.presenter()->answerField()->setText(predictionFor(step));
        QTest::keyClick(window.presenter()->answerField(), Qt::Key_Return);
        QCOMPARE(driver.session().handsFor(index), 1);
        QCOMPARE(driver.addAnswer(predictionFor(step), 6), QString());
        QVERIFY(!driver.addAnswer(QStringLiteral("7 furlongs"), 1).isEmpty());
        QCOMPARE(driver.session().handsFor(index), 7);
        QCOMPARE(driver.reveal(), QString());
        const Result<model::Recording> recording = model::loadRecording(step.show.recordingPath);
        QVERIFY(recording.isOk());
        const Result<model::MeasuredAnswer> expected = model::measureAnswer(step, *recording);
        QVERIFY(expected.isOk());
        // A tile's limit is the tile model's answer, over a measured sweep cell.
        const QString kind = step.question->kind == model::QuestionKind::Limit
                                 ? QStringLiteral("The tile model, on the measured sweep: ")
                                 : QStringLiteral("Measured: ");
        QCOMPARE(labelText(window, kind), kind + expected->text);
        // The reason in words: the pass model, the verdict, or the tile model's limits.
        QVERIFY2(shows(window, QStringLiteral(" launches ")) ||
                     shows(window, QStringLiteral("faster")) ||
                     shows(window, QStringLiteral("The tile model at ")),
                 qPrintable(step.title));
        if (step.question->kind == model::QuestionKind::Limit) {
            QVERIFY(shows(window, QStringLiteral("limited by 32 blocks on 132 SMs")));
            QVERIFY(shows(window, QStringLiteral("tile sweep tiles-mlp-classroom-bf16-h200.json")));
        }
        QVERIFY(shows(window, expected->reason.left(60)));
        const model::Judgement judged =
            model::judgeAnswer(step, *model::normalizeAnswer(step, predictionFor(step)), *expected);
        QVERIFY(shows(window, judged.offText.toHtmlEscaped()));
    }
    QVERIFY(questions >= 6);
    // Each reveal shows the step's recording in the window, on the step's view.
    QCOMPARE(shownInWindow.size(), questions);
    QCOMPARE(shownInWindow.constFirst(), QStringLiteral("h200-affine-2e26.fusescope.json stage"));
    QCOMPARE(shownInWindow[4],
             QStringLiteral("h200-mlp-prefill-4096-bf16.fusescope.json measurement"));
    // A tile's limit opens the tile sweep that measured it, in the Tile explorer.
    QCOMPARE(shownInWindow[5], QStringLiteral("tiles-mlp-classroom-bf16-h200.json tiles"));
    const QString csvPath = progress.filePath(QStringLiteral("answers.csv"));
    QCOMPARE(driver.exportCsv(csvPath), QString());
    QFile csv(csvPath);
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QStringList rows = QString::fromUtf8(csv.readAll()).trimmed().split(QLatin1Char('\n'));
    QCOMPARE(rows.size(), questions + 1);
    for (const QString& row : rows.mid(1))
        QVERIFY2(!row.contains(QStringLiteral(",7,passes,,")), qPrintable(row));

    // Reopened, the lesson continues where the class stopped, answers and reveals kept.
    std::unique_ptr<LessonDriver> reopened = LessonDriver::open(kPlan, progress.path(), &error);
    QVERIFY(reopened);
    QCOMPARE(reopened->current(), static_cast<int>(driver.plan().steps.size()) - 1);
    QCOMPARE(reopened->session().handsFor(0), 7);
    QVERIFY(reopened->session().steps[0].revealed);
}

void LessonPresenterTest::runsAnElementwiseStepLiveOnTheCpu() {
    QString error;
    std::unique_ptr<LessonDriver> driver = LessonDriver::open(kPlan, QString(), &error);
    QVERIFY(driver);
    RunController controller;
    driver->setRunController(&controller, false);
    QSignalSpy finished(&controller, &RunController::runFinished);
    driver->goTo(0);
    QVERIFY(driver->view().source.startsWith(
                QStringLiteral("running live: runs live on the CPU backend")) ||
            driver->view().status.startsWith(QStringLiteral("running live")));
    QVERIFY(!driver->dataReady());
    QVERIFY(finished.wait(120000));
    QVERIFY(driver->dataReady());
    QCOMPARE(driver->addAnswer(QStringLiteral("4 passes"), 3), QString());
    QCOMPARE(driver->reveal(), QString());
    const LessonStepView view = driver->view();
    QCOMPARE(view.measured, QStringLiteral("4 passes"));
    QVERIFY2(view.measuredSource.contains(QStringLiteral("cpu")) ||
                 view.measuredSource.contains(QStringLiteral("CPU")),
             qPrintable(view.measuredSource));
    QCOMPARE(view.answers.constFirst().off, QStringLiteral("right"));

    // The homework's typed chain runs live too, and the reveal is about its own run.
    finished.clear();
    const int homework = static_cast<int>(driver->plan().steps.size()) - 1;
    const model::LessonStep& planned = driver->plan().steps[homework];
    QVERIFY(!planned.show.expression.isEmpty());
    driver->goTo(homework);
    QVERIFY2(driver->view().source.startsWith(QStringLiteral("runs the expression ")),
             qPrintable(driver->view().source));
    QVERIFY(finished.wait(120000));
    QVERIFY(driver->dataReady());
    // The run is the typed chain's, not the affine recording that stands in headless.
    const auto recording = finished.takeFirst().constFirst().value<model::Recording>();
    const model::VariantResult* unfused = nullptr;
    for (const model::VariantResult& run : recording.runs) {
        QCOMPARE(run.pipeline, std::string(expr::kExpressionPipelineName));
        if (run.variant == planned.question->variant.toStdString()) unfused = &run;
    }
    QVERIFY(unfused);
    QCOMPARE(driver->addAnswer(QStringLiteral("4 passes"), 2), QString());
    QCOMPARE(driver->reveal(), QString());
    QCOMPARE(driver->view().measured, QStringLiteral("%1 passes").arg(unfused->passes));
    (void)unregisterPipeline(std::string(expr::kExpressionPipelineName));
}

void LessonPresenterTest::keysMoveRevealAndLeave() {
    QString error;
    LessonWindow window(LessonDriver::open(kPlan, QString(), &error));
    settle(window);
    LessonPresenter* presenter = window.presenter();
    presenter->setFocus();
    // Unanswered: Space moves on without revealing; Left comes back.
    QTest::keyClick(presenter, Qt::Key_Space);
    QCOMPARE(window.driver()->current(), 1);
    QTest::keyClick(presenter, Qt::Key_Left);
    QCOMPARE(window.driver()->current(), 0);
    QCOMPARE(window.driver()->addAnswer(QStringLiteral("2"), 4), QString());
    QTest::keyClick(presenter, Qt::Key_Space);
    QCOMPARE(window.driver()->current(), 0);
    QVERIFY(window.driver()->session().steps[0].revealed);
    QTest::keyClick(presenter, Qt::Key_Right);
    QCOMPARE(window.driver()->current(), 1);
    QSignalSpy left(&window, &LessonWindow::left);
    QTest::keyClick(presenter, Qt::Key_Escape);
    QCOMPARE(left.count(), 1);
    QVERIFY(!window.isVisible());
}

void LessonPresenterTest::everyStepFitsAt1280x720() {
    QString error;
    LessonWindow window(LessonDriver::open(kPlan, QString(), &error));
    LessonDriver& driver = *window.driver();
    settle(window);
    for (int index = 0; index < driver.plan().steps.size(); ++index) {
        driver.goTo(index);
        const model::LessonStep& step = driver.plan().steps[index];
        QCoreApplication::processEvents();
        QStringList problems = presenterProblems(window);
        QVERIFY2(problems.isEmpty(), qPrintable(step.title + QStringLiteral(": ") +
                                                problems.join(QStringLiteral("; "))));
        if (!step.question) continue;
        driver.addAnswer(predictionFor(step), 9);
        driver.addAnswer(predictionFor(step) == QStringLiteral("1")
                             ? QStringLiteral("2")
                             : (step.question->kind == model::QuestionKind::Limit
                                    ? step.question->choices.constFirst()
                                    : step.show.variants.constLast()),
                         4);
        QCOMPARE(driver.reveal(), QString());
        QCoreApplication::processEvents();
        problems = presenterProblems(window);
        QVERIFY2(problems.isEmpty(), qPrintable(step.title + QStringLiteral(" (revealed): ") +
                                                problems.join(QStringLiteral("; "))));
    }
}

QTEST_MAIN(LessonPresenterTest)
#include "lesson_presenter_test.moc"

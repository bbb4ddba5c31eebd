// The expression lab in the window: the parse error at its character, the predicted ledger and
// the generated CUDA, a CPU run of a chain through the window's run path, and the view's text
// readable on a 1280x720 screen (the test runs at scale 1 and 1.5).
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <memory>

#include "layout_checks.h"
#include "long_run_question.h"
#include "model/expression_preview.h"
#include "pipelines/runtime_registry.h"
#include "support/table_texts.h"
#include "ui/charts/chart_view.h"
#include "ui/expression/expression_view.h"
#include "ui/expression/expression_wiring.h"
#include "ui/results/results_model.h"
#include "ui/run/run_panel.h"
#include "ui/window/appearance.h"
#include "ui/window/main_window.h"
#include "worker/run_controller.h"

using namespace fusescope;

using testsupport::columnTexts;

namespace {

constexpr int kRunTimeoutMs = 120000;
const QSize kSmallScreen(1280, 720);

// The run panel's choices for a CPU run with `repeats`.
void chooseCpu(RunPanel& panel, int repeats) {
    panel.backendCombo()->setCurrentIndex(panel.backendCombo()->findData(QStringLiteral("cpu")));
    panel.repeatsSpin()->setValue(repeats);
}

// The window at the small screen's size, shown, with its expression lab open; null where the
// window did not show.
ExpressionView* shownOnASmallScreen(MainWindow& window) {
    window.resize(kSmallScreen);
    window.show();
    if (!QTest::qWaitForWindowExposed(&window)) return nullptr;
    showExpressionView(window);
    return window.findChild<ExpressionView*>(QStringLiteral("expressionView"));
}

}  // namespace

class ExpressionViewTest : public QObject {
    Q_OBJECT
  private slots:
    void init();
    void parseErrorPointsAtItsCharacter();
    void ledgerAndCudaFollowTheText();
    void cpuRunOfAChainThroughTheWindow();
    void aLongCpuRunIsAskedAboutFirst();
    void theRunPanelListsChainsAsTheyAreRegistered();
    void readableOnASmallScreen();
    void presentationTextIsLarge();

  private:
    std::unique_ptr<QTemporaryDir> directory_;
    std::unique_ptr<QSettings> settings_;
};

void ExpressionViewTest::init() {
    directory_ = std::make_unique<QTemporaryDir>();
    QVERIFY(directory_->isValid());
    settings_ = std::make_unique<QSettings>(directory_->filePath(QStringLiteral("settings.ini")),
                                            QSettings::IniFormat);
}

void ExpressionViewTest::parseErrorPointsAtItsCharacter() {
    ExpressionView view;
    // Nothing typed yet: a hint, no error and nothing to run.
    QVERIFY(!view.messageLabel()->text().contains(QLatin1Char('^')));
    QVERIFY(!view.runButton()->isEnabled());
    QCOMPARE(view.ledgerTable()->rowCount(), 0);
    // The '*' after '+' is the tenth character (9 from 0): an expression was expected there.
    view.setExpression(QStringLiteral("out = x +* y"));
    const QStringList lines = view.messageLabel()->text().split(QLatin1Char('\n'));
    QCOMPARE(lines.size(), 3);
    QVERIFY2(lines[0].contains(QStringLiteral("at character 10")), qPrintable(lines[0]));
    QVERIFY2(lines[0].contains(QStringLiteral("expected")), qPrintable(lines[0]));
    QCOMPARE(lines[1], QStringLiteral("out = x +* y"));
    QCOMPARE(lines[2], QString(9, QLatin1Char(' ')) + QLatin1Char('^'));
    QVERIFY(!view.runButton()->isEnabled());
    QCOMPARE(view.ledgerTable()->rowCount(), 0);
    QVERIFY(view.cudaText()->toPlainText().isEmpty());

    // A missing ')' at the end points past the last character.
    view.setExpression(QStringLiteral("out = exp(x"));
    const QStringList end = view.messageLabel()->text().split(QLatin1Char('\n'));
    QCOMPARE(end.size(), 3);
    QVERIFY2(end[0].contains(QStringLiteral("')'")), qPrintable(end[0]));
    QCOMPARE(end[2], QString(11, QLatin1Char(' ')) + QLatin1Char('^'));

    view.setExpression(QStringLiteral("out = x + y"));
    QVERIFY(view.runButton()->isEnabled());
    QVERIFY(!view.messageLabel()->text().contains(QLatin1Char('^')));
}

void ExpressionViewTest::ledgerAndCudaFollowTheText() {
    ExpressionView view;
    view.setExpression(QStringLiteral("t = x * 2 | out = t + 3"));
    QTableWidget* ledger = view.ledgerTable();
    const QStringList variants = columnTexts(*ledger, 0);
    QVERIFY(variants.contains(QStringLiteral("unfused")));
    QVERIFY(variants.contains(QStringLiteral("fused")));
    QVERIFY2(variants.contains(QStringLiteral("split")), qPrintable(variants.join(',')));
    // Which bytes the table shows is said in its header.
    QVERIFY(ledger->horizontalHeaderItem(6)->text().contains(QStringLiteral("Requested")));
    // The fused kernel reads x once and writes out once: 2 passes of 4 B per element of 2^24.
    bool fusedKernelSeen = false;
    for (int row = 0; row < ledger->rowCount(); ++row) {
        if (ledger->item(row, 0)->text() != QLatin1String("fused") ||
            ledger->item(row, 1)->text() != QLatin1String("fused"))
            continue;
        fusedKernelSeen = true;
        QCOMPARE(ledger->item(row, 2)->text(), QStringLiteral("x"));
        QCOMPARE(ledger->item(row, 3)->text(), QStringLiteral("out"));
        QCOMPARE(ledger->item(row, 5)->text(), QStringLiteral("2"));
    }
    QVERIFY(fusedKernelSeen);
    QVERIFY(view.cudaText()->isReadOnly());
    const QString wide = view.cudaText()->toPlainText();
    QVERIFY(wide.contains(QStringLiteral("float4")));
    auto* width = view.findChild<QComboBox*>(QStringLiteral("expressionVector"));
    QVERIFY(width);
    width->setCurrentIndex(width->findData(1));
    QCOMPARE(view.vectorWidth(), 1);
    QVERIFY(!view.cudaText()->toPlainText().contains(QStringLiteral("float4")));
    // Without '|' there is no split of the learner's.
    view.setExpression(QStringLiteral("t = x * 2; out = t + 3"));
    QVERIFY(!columnTexts(*ledger, 0).contains(QStringLiteral("split")));
}

void ExpressionViewTest::cpuRunOfAChainThroughTheWindow() {
    MainWindow window(settings_.get());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    chooseCpu(*window.runPanel(), 2);
    auto* view = window.findChild<ExpressionView*>(QStringLiteral("expressionView"));
    QVERIFY(view);
    // Reached from the View menu.
    QAction* menuEntry = nullptr;
    for (QAction* action : window.menuBar()->findChildren<QAction*>())
        if (action->text().remove(QLatin1Char('&')) == QLatin1String("Expression lab"))
            menuEntry = action;
    QVERIFY(menuEntry);
    menuEntry->trigger();
    QCOMPARE(window.chartTabs()->currentWidget(), view);

    view->setExpression(QStringLiteral("t = x * 2 | out = t + 3"));
    view->findChild<QSpinBox*>(QStringLiteral("expressionLog2N"))->setValue(12);
    QSignalSpy ended(&window, &MainWindow::runEnded);
    QTest::mouseClick(view->runButton(), Qt::LeftButton);
    QVERIFY(window.isRunning());
    QVERIFY(!view->runButton()->isEnabled());
    QVERIFY(ended.wait(kRunTimeoutMs));
    QVERIFY2(ended.first().at(0).toBool(), qPrintable(ended.first().at(1).toString()));
    QVERIFY(view->runButton()->isEnabled());

    const model::Recording& recording = window.recording();
    QStringList ran;
    for (const model::VariantResult& run : recording.runs) {
        ran << model::toQString(run.variant);
        QCOMPARE(run.problem.dimension("N"), quint64{4096});
    }
    QCOMPARE(ran, (QStringList{QStringLiteral("unfused"), QStringLiteral("fused"),
                               QStringLiteral("split")}));
    auto* table = window.findChild<QTableView*>(QStringLiteral("variantTable"));
    QVERIFY(table);
    QCOMPARE(table->model()->rowCount(), 3);
    // Each variant's output checked against the chain evaluated in double.
    for (int row = 0; row < 3; ++row) {
        const QString check =
            table->model()->index(row, VariantResultsModel::Check).data().toString();
        QVERIFY2(check.startsWith(QStringLiteral("OK")), qPrintable(check));
    }
    for (ChartView* chart : window.charts()) QCOMPARE(chart->recording().runs.size(), 3);

    // Saved and opened again, the recording shows the chain's runs as any pipeline's.
    const QString path = directory_->filePath(QStringLiteral("expression.json"));
    QCOMPARE(window.saveRecording(path), QString());
    MainWindow reopened(settings_.get());
    QCOMPARE(reopened.openRecording(path), QString());
    QCOMPARE(reopened.recording().runs.size(), 3);
    QCOMPARE(reopened.recording().runs.front().pipeline, recording.runs.front().pipeline);
    QCOMPARE(reopened.findChild<QTableView*>(QStringLiteral("variantTable"))->model()->rowCount(),
             3);
}

// Run asks before a long CPU run, as the run panel's Run does: No runs nothing, Yes runs (and
// Esc stops it).
void ExpressionViewTest::aLongCpuRunIsAskedAboutFirst() {
    MainWindow window(settings_.get());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    chooseCpu(*window.runPanel(), window.runPanel()->repeatsSpin()->maximum());
    showExpressionView(window);
    auto* view = window.findChild<ExpressionView*>(QStringLiteral("expressionView"));
    QVERIFY(view);
    view->setExpression(QStringLiteral("out = silu(g) * u"));
    view->findChild<QSpinBox*>(QStringLiteral("expressionLog2N"))->setValue(24);
    QSignalSpy ended(&window, &MainWindow::runEnded);
    QString question;
    testing::answerTheLongRunQuestion(QMessageBox::No, &question);
    QTest::mouseClick(view->runButton(), Qt::LeftButton);
    // Asked at once when this CPU's speeds are known, else once the worker measured them.
    QTRY_VERIFY2_WITH_TIMEOUT(question.contains(QStringLiteral("on this CPU")),
                              qPrintable(question), 30000);
    QVERIFY(!window.isRunning());
    QVERIFY(view->runButton()->isEnabled());
    QCOMPARE(ended.count(), 0);

    window.activateWindow();  // back from the question
    QVERIFY(QTest::qWaitForWindowActive(&window));
    testing::answerTheLongRunQuestion(QMessageBox::Yes, &question);
    QTest::mouseClick(view->runButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!question.isEmpty(), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(window.runController()->isRunning(), 5000);
    window.cancelRun();
    QVERIFY(ended.wait(5000));
    QCOMPARE(ended.first().at(0).toBool(), false);
}

// The run panel lists a chain once it is registered (by the expression lab, or by opening a
// recording that carries it), follows its variants when it is replaced, and drops it when it
// goes.
void ExpressionViewTest::theRunPanelListsChainsAsTheyAreRegistered() {
    const std::string name = "expression";
    (void)unregisterPipeline(name);
    MainWindow window(settings_.get());
    QComboBox* pipelines = window.runPanel()->pipelineCombo();
    QListWidget* variants = window.runPanel()->variantList();
    const QString key = QString::fromStdString(name);
    QCOMPARE(pipelines->findData(key), -1);

    QVERIFY(model::expressionRunRequest(QStringLiteral("out = x * 3 + 1"), 4096, 4));
    QTRY_VERIFY(pipelines->findData(key) >= 0);
    pipelines->setCurrentIndex(pipelines->findData(key));
    QCOMPARE(variants->count(), 2);  // unfused, fused
    QVERIFY(model::expressionRunRequest(QStringLiteral("t = x * 3 | out = t + 1"), 4096, 4));
    QTRY_COMPARE(variants->count(), 3);  // and the split
    QCOMPARE(pipelines->currentData().toString(), key);

    // A CPU run of it saved, the chain unregistered, the recording opened: listed and chosen.
    chooseCpu(*window.runPanel(), 1);
    window.runPanel()->elementCountEdit()->setText(QStringLiteral("4096"));
    QSignalSpy ended(&window, &MainWindow::runEnded);
    window.startRun();
    QVERIFY(ended.wait(kRunTimeoutMs));
    QVERIFY(ended.first().at(0).toBool());
    const QString path = directory_->filePath(QStringLiteral("chain.json"));
    QCOMPARE(window.saveRecording(path), QString());
    QVERIFY(unregisterPipeline(name));
    QTRY_COMPARE(pipelines->findData(key), -1);
    QVERIFY(pipelines->currentData().toString() != key);
    QCOMPARE(window.openRecording(path), QString());
    QCOMPARE(pipelines->currentData().toString(), key);
    QCOMPARE(variants->count(), 3);
    QVERIFY(unregisterPipeline(name));
}

void ExpressionViewTest::presentationTextIsLarge() {
    MainWindow window(settings_.get());
    ExpressionView* view = shownOnASmallScreen(window);
    QVERIFY(view);
    view->setExpression(QStringLiteral("out = x +* y"));
    window.setPresentation(true, false);
    QCoreApplication::processEvents();
    const QStringList problems = testing::labelProblems(window);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    for (QWidget* part :
         {static_cast<QWidget*>(view->textField()), static_cast<QWidget*>(view->messageLabel()),
          static_cast<QWidget*>(view->ledgerTable()), static_cast<QWidget*>(view->cudaText())})
        QVERIFY2(QFontInfo(part->font()).pixelSize() >= kPresentationTextPixels,
                 qPrintable(QStringLiteral("%1: %2 px")
                                .arg(part->objectName())
                                .arg(QFontInfo(part->font()).pixelSize())));
}

void ExpressionViewTest::readableOnASmallScreen() {
    MainWindow window(settings_.get());
    ExpressionView* view = shownOnASmallScreen(window);
    QVERIFY(view);
    for (const QString& text :
         {QStringLiteral("t = x * 2 | out = t + 3"), QStringLiteral("out = x +* y")}) {
        view->setExpression(text);
        // A wrapped label takes its height in a later layout pass than its new text: wait for the
        // layout to settle (up to 5 s) rather than judge the first pass.
        QTRY_VERIFY2_WITH_TIMEOUT(
            testing::labelProblems(window).isEmpty(),
            qPrintable(testing::labelProblems(window).join(QLatin1Char('\n'))), 5000);
        const auto seenWhole = [](QWidget* part) {
            const QRect seen = testing::visibleRectInWindow(*part);
            return part->isVisible() && seen.height() >= part->fontMetrics().height();
        };
        auto* pages = view->findChild<QTabWidget*>(QStringLiteral("expressionPages"));
        QVERIFY(pages);
        pages->setCurrentWidget(view->cudaText());
        QCoreApplication::processEvents();
        QVERIFY(seenWhole(view->cudaText()));
        pages->setCurrentWidget(view->ledgerTable());
        QCoreApplication::processEvents();
        for (QWidget* part :
             {static_cast<QWidget*>(view->textField()), static_cast<QWidget*>(view->runButton()),
              static_cast<QWidget*>(view->ledgerTable())})
            QVERIFY2(seenWhole(part), qPrintable(part->objectName()));
        // The ledger shows at least its header and a row, and every column without scrolling.
        QTableWidget* ledger = view->ledgerTable();
        if (ledger->rowCount() > 0) {
            QVERIFY2(ledger->viewport()->height() >= ledger->rowHeight(0),
                     qPrintable(QString::number(ledger->viewport()->height())));
            QHeaderView* header = ledger->horizontalHeader();
            const int last = ledger->columnCount() - 1;
            const int needed = header->sectionPosition(last) +
                               std::max(header->sectionSize(last), header->sectionSizeHint(last));
            QVERIFY2(needed <= ledger->viewport()->width(),
                     qPrintable(QStringLiteral("columns need %1 px, the ledger shows %2")
                                    .arg(needed)
                                    .arg(ledger->viewport()->width())));
        }
    }
}

QTEST_MAIN(ExpressionViewTest)
#include "expression_view_test.moc"

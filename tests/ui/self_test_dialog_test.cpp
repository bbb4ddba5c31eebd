// Help > Check this machine…: the dialog lists the same checks as `fusescope-cli selftest`, from
// a probe made on the worker thread, with the window's own display, and fits a 1280x720 screen
// at 150% scaling.
#include <QLabel>
#include <QMenuBar>
#include <QTextBrowser>
#include <QtTest>

#include "pipelines/registry.h"
#include "support/settings_folder.h"
#include "support/shown_window.h"
#include "ui/window/main_window.h"
#include "ui/window/self_test_dialog.h"

using namespace fusescope;

namespace {

QAction* findAction(QMenuBar* bar, const QString& text) {
    for (QAction* menu : bar->actions())
        if (menu->menu())
            for (QAction* action : menu->menu()->actions())
                if (action->text() == text) return action;
    return nullptr;
}

const selftest::Check* findCheck(const QVector<selftest::Check>& checks, const QString& name) {
    for (const selftest::Check& check : checks)
        if (check.name == name) return &check;
    return nullptr;
}

}  // namespace

class SelfTestDialogTest : public QObject {
    Q_OBJECT
  private slots:
    void helpMenuShowsTheChecksOfThisMachine();
};

void SelfTestDialogTest::helpMenuShowsTheChecksOfThisMachine() {
    testsupport::SettingsFolder folder;
    QVERIFY(folder.isValid());
    MainWindow window(folder.settings());
    QVERIFY(testsupport::showExposed(window));

    QAction* action = findAction(window.menuBar(), QStringLiteral("&Check this machine…"));
    QVERIFY(action);
    action->trigger();
    auto* dialog = window.findChild<SelfTestDialog*>();
    QVERIFY(dialog);
    QVERIFY(dialog->isVisible());
    QTRY_VERIFY_WITH_TIMEOUT(!dialog->checks().isEmpty(), 120000);

    const QVector<selftest::Check>& checks = dialog->checks();
    for (const PipelineSpec& pipeline : pipelines()) {
        // Elementwise pipelines are checked per vector width, the others per dtype.
        const QString label = pipeline.findTuning(kVectorWidthTuning)
                                  ? QStringLiteral("vector %1").arg(kDefaultVectorWidth)
                                  : QString::fromUtf8(dtypeName(pipeline.dtypes.front()));
        const selftest::Check* run =
            findCheck(checks, QStringLiteral("Pipeline %1 on cpu (%2)")
                                  .arg(QString::fromStdString(pipeline.name), label));
        QVERIFY2(run, pipeline.name.c_str());
        QCOMPARE(run->status, selftest::CheckStatus::Pass);
    }
    // Offscreen (the tests' platform) shows no window to anyone.
    const selftest::Check* display = findCheck(checks, QStringLiteral("Display"));
    QVERIFY(display);
    QCOMPARE(display->status, selftest::CheckStatus::Warn);
    QVERIFY(display->found.contains(QStringLiteral("offscreen")));
    QVERIFY(findCheck(checks, QStringLiteral("Shipped recordings")));

    const QString shown = dialog->findChild<QTextBrowser*>()->toPlainText();
    for (const selftest::Check& check : checks) {
        QVERIFY2(shown.contains(check.name), qPrintable(check.name));
        QVERIFY2(shown.contains(selftest::checkStatusText(check.status)), qPrintable(check.name));
    }
    QVERIFY(dialog->findChild<QLabel*>()->text().contains(QStringLiteral("ready for class")));
    // 1280x720 at 150% is 853x480 logical pixels.
    QVERIFY(dialog->width() <= 853 && dialog->height() <= 480);
    QVERIFY(dialog->minimumSizeHint().width() <= 853 && dialog->minimumSizeHint().height() <= 480);
}

QTEST_MAIN(SelfTestDialogTest)
#include "self_test_dialog_test.moc"

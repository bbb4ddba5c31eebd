// The memory stage inside the main window (offscreen): its tab gets most of the height while it
// is shown and the user's split returns afterwards; F11 in the window is lesson mode full screen.
#include <QSplitter>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

#include "ui/main_window.h"
#include "ui/stage/memory_stage_view.h"

using namespace fusescope;

class StageInWindowTest : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase();
    void stageTabGetsMostOfTheHeight();
    void f11InTheWindowIsLessonModeFullScreen();

  private:
    QTemporaryDir directory_;
};

void StageInWindowTest::initTestCase() {
    // Neither the window's nor the stage's settings may touch the user's own.
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("fusescope-stage-in-window-test"));
    QVERIFY(directory_.isValid());
}

void StageInWindowTest::stageTabGetsMostOfTheHeight() {
    QSettings settings(directory_.filePath(QStringLiteral("room.ini")), QSettings::IniFormat);
    MainWindow window(&settings);
    window.resize(1600, 1000);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto* stage = window.findChild<MemoryStageView*>(QStringLiteral("memoryStage"));
    QVERIFY2(stage, "no memory stage in the window");
    QTabWidget* tabs = window.viewTabs();
    auto* splitter = qobject_cast<QSplitter*>(tabs->parentWidget());
    QVERIFY(splitter);
    const QList<int> before = splitter->sizes();

    tabs->setCurrentWidget(stage);
    QTest::qWait(20);
    const QList<int> sizes = splitter->sizes();
    const int index = splitter->indexOf(tabs);
    int total = 0;
    for (int size : sizes) total += size;
    QVERIFY2(sizes[index] >= total * 0.6,
             qPrintable(QStringLiteral("stage tab %1 of %2 px").arg(sizes[index]).arg(total)));
    QVERIFY(sizes[index] > before[index]);
    qInfo("stage tab: %d of %d px (before: %d)", sizes[index], total, before[index]);

    tabs->setCurrentIndex(0);
    QTest::qWait(20);
    QCOMPARE(splitter->sizes(), before);
}

void StageInWindowTest::f11InTheWindowIsLessonModeFullScreen() {
    QSettings settings(directory_.filePath(QStringLiteral("f11.ini")), QSettings::IniFormat);
    MainWindow window(&settings);
    window.resize(1200, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    auto* stage = window.findChild<MemoryStageView*>(QStringLiteral("memoryStage"));
    QVERIFY(stage);

    // Another tab shown: the hidden stage leaves F11 alone.
    window.viewTabs()->setCurrentIndex(0);
    QTest::keyClick(&window, Qt::Key_F11);
    QVERIFY(!stage->isFullScreen());

    window.viewTabs()->setCurrentWidget(stage);
    const bool lessonBefore = stage->lessonMode();
    QTest::keyClick(&window, Qt::Key_F11);
    QVERIFY(stage->isFullScreen());
    QVERIFY(stage->lessonMode());
    stage->setFullScreen(false);
    QCOMPARE(stage->lessonMode(), lessonBefore);
    QCOMPARE(window.viewTabs()->currentWidget(), stage);
}

QTEST_MAIN(StageInWindowTest)
#include "stage_in_window_test.moc"

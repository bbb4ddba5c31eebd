// The memory stage remembers its speed and lesson mode in injected settings, and F11 (or the
// full-screen button) puts it in lesson mode full screen and back (offscreen).
#include <QSettings>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

#include "stage_test_runs.h"
#include "support/shown_window.h"
#include "ui/stage/memory_stage_view.h"
#include "ui/stage/stage_player.h"

using namespace fusescope;

class StageSettingsTest : public QObject {
    Q_OBJECT
  private slots:
    void speedAndLessonModeAreRemembered();
    void f11IsLessonModeFullScreenAndBack();
};

void StageSettingsTest::speedAndLessonModeAreRemembered() {
    QTemporaryDir directory;
    QVERIFY(directory.isValid());
    const QString path = directory.filePath(QStringLiteral("fusescope.ini"));
    {
        QSettings settings(path, QSettings::IniFormat);
        MemoryStageView view;
        view.setSettings(&settings);
        QVERIFY(!view.lessonMode());
        view.player()->setPlaySeconds(15.0);
        view.setLessonMode(true);
    }
    QSettings settings(path, QSettings::IniFormat);
    MemoryStageView view;
    QCOMPARE(view.player()->playSeconds(), 10.0);  // the default, before settings arrive
    view.setSettings(&settings);
    QCOMPARE(view.player()->playSeconds(), 15.0);
    QVERIFY(view.lessonMode());
    view.setLessonMode(false);
    QCOMPARE(settings.value(QStringLiteral("stage/lessonMode")).toBool(), false);
}

void StageSettingsTest::f11IsLessonModeFullScreenAndBack() {
    QWidget window;
    auto* view = new MemoryStageView(&window);
    const model::VariantResult scratch =
        stagetest::syntheticRun(QStringLiteral("swiglu"), QStringLiteral("scratch"), 1 << 20, 1.0);
    QVERIFY(view->setRuns(scratch, nullptr, {}));
    QVERIFY(testsupport::showAt(window, QSize(800, 450)));
    QVERIFY(!view->lessonMode());

    QTest::keyClick(view->stage(), Qt::Key_F11);
    QVERIFY(view->isFullScreen());
    QVERIFY(view->lessonMode());
    QTest::keyClick(view->stage(), Qt::Key_F11);
    QVERIFY(!view->isWindow());
    QVERIFY(!view->lessonMode());  // the user's own choice returns

    // The toolbar's full-screen button does the same.
    QToolButton* fullScreenButton = nullptr;
    for (QToolButton* button : view->findChildren<QToolButton*>())
        if (button->isCheckable() &&
            button->text().contains(QStringLiteral("ull"), Qt::CaseInsensitive))
            fullScreenButton = button;
    QVERIFY2(fullScreenButton, "no full-screen button in the stage toolbar");
    fullScreenButton->click();
    QVERIFY(view->isFullScreen());
    QVERIFY(view->lessonMode());
    QTest::keyClick(view->stage(), Qt::Key_Escape);
    QVERIFY(!view->isWindow());
    QCOMPARE(view->parentWidget(), &window);
}

QTEST_MAIN(StageSettingsTest)
#include "stage_settings_test.moc"

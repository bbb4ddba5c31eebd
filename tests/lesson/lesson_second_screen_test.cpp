// Presenter mode with a second screen (the offscreen platform given two by a screen file): the
// step fills the projector, the teacher's notes and the next step go to the other screen and
// follow the class from step to step.
#include <QGuiApplication>
#include <QLabel>
#include <QScreen>
#include <QTest>

#include "ui/lesson/lesson_window.h"

using namespace fusescope;

class LessonSecondScreenTest : public QObject {
    Q_OBJECT
  private slots:
    void notesGoToTheOtherScreen();
};

namespace {

QString notesShown(QWidget* notes) {
    QStringList texts;
    for (const QLabel* label : notes->findChildren<QLabel*>()) texts << label->text();
    return texts.join(QLatin1Char('\n'));
}

}  // namespace

void LessonSecondScreenTest::notesGoToTheOtherScreen() {
    const QList<QScreen*> screens = QGuiApplication::screens();
    QCOMPARE(screens.size(), 2);
    QString error;
    LessonWindow window(LessonDriver::open(
        QStringLiteral(FUSESCOPE_LESSONS_DIR "/fused-kernels.lesson.md"), QString(), &error));
    QVERIFY2(window.driver(), qPrintable(error));
    window.driver()->goTo(0);
    window.setScreen(screens[0]);
    window.present();
    QCoreApplication::processEvents();
    QVERIFY(window.isFullScreen());
    QCOMPARE(window.screen(), screens[0]);
    QWidget* notes = window.notesWindow();
    QVERIFY(notes->isVisible());
    QVERIFY2(screens[1]->geometry().contains(notes->geometry()),
             qPrintable(QStringLiteral("notes at %1,%2 %3x%4")
                            .arg(notes->geometry().x())
                            .arg(notes->geometry().y())
                            .arg(notes->width())
                            .arg(notes->height())));
    const auto& steps = window.driver()->plan().steps;
    QVERIFY(notesShown(notes).contains(steps[0].notes.section(QLatin1Char('\n'), 0, 0)));
    QVERIFY(notesShown(notes).contains(steps[1].title));
    window.driver()->goTo(1);
    QCoreApplication::processEvents();
    QVERIFY(notesShown(notes).contains(steps[1].notes.section(QLatin1Char('\n'), 0, 0)));
    QVERIFY(notesShown(notes).contains(steps[2].title));
}

QTEST_MAIN(LessonSecondScreenTest)
#include "lesson_second_screen_test.moc"

// `fusescope --lesson FILE --step K --screenshot PNG --size WxH`, started as a user would with no
// display: a step asked and revealed renders at the size asked; a malformed plan, a step past
// the end and a refused answer end with the reason.
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

const QString kPlan = QStringLiteral(FUSESCOPE_LESSONS_DIR "/fused-kernels.lesson.md");

struct Started {
    int exitCode = -1;
    QString err;
};

Started start(const QStringList& arguments) {
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.remove(QStringLiteral("DISPLAY"));
    environment.remove(QStringLiteral("WAYLAND_DISPLAY"));
    environment.remove(QStringLiteral("QT_QPA_PLATFORM"));
    process.setProcessEnvironment(environment);
    process.start(QStringLiteral(FUSESCOPE_GUI_PATH), arguments);
    process.waitForFinished(120000);
    return {process.exitCode(), QString::fromUtf8(process.readAllStandardError())};
}

}  // namespace

class LessonHeadlessTest : public QObject {
    Q_OBJECT
  private slots:
    void rendersAStepAskedAndRevealed() {
        QTemporaryDir dir;
        const QString asked = dir.filePath(QStringLiteral("asked.png"));
        const QString revealed = dir.filePath(QStringLiteral("revealed.png"));
        QCOMPARE(start({QStringLiteral("--lesson"), kPlan, QStringLiteral("--step"),
                        QStringLiteral("5"), QStringLiteral("--answer"), QStringLiteral("2=9"),
                        QStringLiteral("--screenshot"), asked, QStringLiteral("--size"),
                        QStringLiteral("1280x720")})
                     .exitCode,
                 0);
        const Started reveal =
            start({QStringLiteral("--lesson"), kPlan, QStringLiteral("--step"), QStringLiteral("5"),
                   QStringLiteral("--answer"), QStringLiteral("2=9"), QStringLiteral("--reveal"),
                   QStringLiteral("--screenshot"), revealed, QStringLiteral("--size"),
                   QStringLiteral("1280x720")});
        QVERIFY2(reveal.exitCode == 0, qPrintable(reveal.err));
        const QImage before(asked);
        const QImage after(revealed);
        QCOMPARE(before.size(), QSize(1280, 720));
        QCOMPARE(after.size(), QSize(1280, 720));
        QVERIFY(before != after);
    }

    void refusesWithTheReason() {
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("x.png"));
        const QString bad = dir.filePath(QStringLiteral("bad.lesson.md"));
        QFile file(bad);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("# Bad\n\n## One\npipeline: afine\n");
        file.close();
        Started started =
            start({QStringLiteral("--lesson"), bad, QStringLiteral("--screenshot"), png});
        QCOMPARE(started.exitCode, 2);
        QVERIFY2(started.err.contains(bad + QStringLiteral(":4: unknown pipeline 'afine'")),
                 qPrintable(started.err));
        started = start({QStringLiteral("--lesson"), kPlan, QStringLiteral("--step"),
                         QStringLiteral("99"), QStringLiteral("--screenshot"), png});
        QCOMPARE(started.exitCode, 2);
        QVERIFY2(started.err.contains(QStringLiteral("the plan has 8 steps")),
                 qPrintable(started.err));
        started = start({QStringLiteral("--lesson"), kPlan, QStringLiteral("--answer"),
                         QStringLiteral("3 GB"), QStringLiteral("--screenshot"), png});
        QCOMPARE(started.exitCode, 2);
        QVERIFY2(started.err.contains(QStringLiteral("bad unit 'GB'")), qPrintable(started.err));
        started = start({QStringLiteral("--lesson"), kPlan, QStringLiteral("--reveal"),
                         QStringLiteral("--screenshot"), png});
        QCOMPARE(started.exitCode, 2);
        QVERIFY2(started.err.contains(QStringLiteral("has not answered")), qPrintable(started.err));
        QVERIFY(!QFile::exists(png));
    }
};

QTEST_GUILESS_MAIN(LessonHeadlessTest)
#include "lesson_headless_test.moc"

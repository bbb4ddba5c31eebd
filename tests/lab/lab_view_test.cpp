// The Lab view: the starter without a GPU, the compile-error list and its line jump, the
// declared buffers and the peak, Save and Open, and the child process's time limit and Cancel.
// On a GPU: a crashing and a hanging kernel, after which the next run works.
#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <Qsci/qsciscintilla.h>

#include "runtime/backend.h"
#include "ui/lab/lab_buffers.h"
#include "ui/lab/lab_editor.h"
#include "ui/lab/lab_view.h"

using namespace fusescope;

namespace {

constexpr int kBuildWaitMs = 60000;

// The CLI the Lab starts: FUSESCOPE_CLI as the test was started with (a bundle on the GPU machine),
// else the build tree's.
QByteArray realCli() {
    static const QByteArray given = qgetenv("FUSESCOPE_CLI");
    return given.isEmpty() ? QByteArray(FUSESCOPE_CLI_PATH) : given;
}

// A stand-in for fusescope-cli that never ends: the compile (or run) that hangs.
QString writeHangingCli(const QTemporaryDir& dir) {
    const QString path = dir.filePath(QStringLiteral("hanging-cli"));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly)) return {};
    file.write("#!/bin/sh\nexec sleep 60\n");
    file.close();
    file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    return path;
}

int rowOf(const LabBuffers& buffers, const QString& name) {
    for (int row = 0; row < buffers.table()->rowCount(); ++row)
        if (buffers.table()->item(row, 0)->text() == name) return row;
    return -1;
}

}  // namespace

class LabViewTest : public QObject {
    Q_OBJECT
  private slots:
    void init() { qputenv("FUSESCOPE_CLI", realCli()); }

    void withoutAGpuTheStarterShowsAndRunningIsOfferedElsewhere() {
        LabView lab;
        lab.setGpu(false, QStringLiteral("no CUDA device"));
        QVERIFY(lab.starterCombo()->count() >= 3);
        QVERIFY(lab.editor()->text().contains(QStringLiteral("scratch[i] * up[i]")));
        QVERIFY(!lab.runButton()->isEnabled());
        QVERIFY(lab.gpuNote()->text().contains(QStringLiteral("Running needs a GPU")));
        QVERIFY(lab.gpuNote()->text().contains(QStringLiteral("--kernel-file")));
        QVERIFY(lab.findChild<QPushButton*>(QStringLiteral("labOpenRecording"))->isVisibleTo(&lab));
        QSignalSpy asked(&lab, &LabView::openRecordingRequested);
        lab.findChild<QPushButton*>(QStringLiteral("labOpenRecording"))->click();
        QCOMPARE(asked.count(), 1);
    }

    void compileErrorsAreListedMarkedAndAClickJumpsToTheLine() {
        LabView lab;
        QString text = lab.editor()->text();
        const int typoLine = text.left(text.indexOf(QStringLiteral("expf(-g)"))).count('\n') + 1;
        text.replace(QStringLiteral("expf(-g)"), QStringLiteral("expf(-gg)"));
        lab.editor()->setText(text);
        QSignalSpy built(&lab, &LabView::buildFinished);
        lab.build();
        QVERIFY(built.wait(kBuildWaitMs));
        QCOMPARE(built.first().at(0).toBool(), false);
        QVERIFY2(lab.messageList()->count() >= 1, qPrintable(lab.statusLabel()->text()));
        QListWidgetItem* first = lab.messageList()->item(0);
        QCOMPARE(first->text(),
                 QStringLiteral("line %1: error: identifier \"gg\" is undefined").arg(typoLine));
        QCOMPARE(lab.editor()->markedLines(), QList<int>{typoLine});
        QVERIFY(!lab.editor()->editor()->annotation(typoLine - 1).isEmpty());
        lab.editor()->jumpToLine(1);
        emit lab.messageList()->itemClicked(first);
        QCOMPARE(lab.editor()->cursorLine(), typoLine);
        // Fixed, the build succeeds and the marks go.
        text.replace(QStringLiteral("expf(-gg)"), QStringLiteral("expf(-g)"));
        lab.editor()->setText(text);
        built.clear();
        lab.build();
        QVERIFY(built.wait(kBuildWaitMs));
        QVERIFY2(built.first().at(0).toBool(), qPrintable(lab.statusLabel()->text()));
        QCOMPARE(lab.messageList()->count(), 0);
        QVERIFY(lab.editor()->markedLines().isEmpty());
    }

    void removingTheScratchBufferDropsThePeakByNTimesFourBytesAndItsPasses() {
        LabView lab;
        const Result<model::LearnerKernel> before = lab.currentKernel();
        QVERIFY(before);
        const QString peakBefore = lab.buffers()->peakLabel()->text();
        lab.buffers()->removeBuffer(rowOf(*lab.buffers(), QStringLiteral("scratch")));
        const Result<model::LearnerKernel> after = lab.currentKernel();
        QVERIFY2(after, after ? "" : after.status().message().c_str());
        const std::uint64_t n = std::uint64_t{1} << 24;
        QCOMPARE(before->peakBytes(n) - after->peakBytes(n), n * 4);
        QCOMPARE(before->passCount() - after->passCount(), 2);
        QVERIFY(lab.buffers()->peakLabel()->text() != peakBefore);
    }

    void savedKernelsOpenAgainAndAMalformedFileSaysItsLine() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        LabView lab;
        lab.buffers()->removeBuffer(rowOf(*lab.buffers(), QStringLiteral("scratch")));
        lab.editor()->setText(QStringLiteral("// mine\n"));
        const QString path = dir.filePath(QStringLiteral("mine.cu"));
        QCOMPARE(lab.saveKernel(path), QString());
        LabView other;
        QCOMPARE(other.openKernel(path), QString());
        QCOMPARE(other.editor()->text(), QStringLiteral("// mine\n"));
        QCOMPARE(rowOf(*other.buffers(), QStringLiteral("scratch")), -1);
        QCOMPARE(other.currentKernel()->buffers, lab.currentKernel()->buffers);
        QFile bad(dir.filePath(QStringLiteral("bad.cu")));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("// fusescope-kernel 1\n// entry: k\n// colour: red\n");
        bad.close();
        QVERIFY(other.openKernel(bad.fileName())
                    .endsWith(QStringLiteral("line 3: unknown key \"colour\" (entry, reference, "
                                             "expression, buffer, pass)")));
    }

    // The blank starter: its reference is the expression in the field; typing another gives the
    // kernel that expression's buffers, and one that does not parse is refused at its character.
    void aBlankKernelsBuffersFollowTheExpressionTyped() {
        LabView lab;
        const int blank = lab.starterCombo()->findData(QStringLiteral("your_own_blank.cu"));
        QVERIFY(blank >= 0);
        lab.loadStarter(blank);
        QVERIFY(lab.expressionEdit()->isVisibleTo(&lab));
        QCOMPARE(lab.expressionEdit()->text(), QStringLiteral("out = x * 2 + 3"));
        QCOMPARE(lab.setExpression(QStringLiteral("out = silu(g) * u")), QString());
        QCOMPARE(lab.buffers()->table()->rowCount(), 3);
        QCOMPARE(rowOf(*lab.buffers(), QStringLiteral("u")), 1);
        const Result<model::LearnerKernel> kernel = lab.currentKernel();
        QVERIFY(kernel);
        QCOMPARE(kernel->expression, QStringLiteral("out = silu(g) * u"));
        QVERIFY(kernel->reference.isEmpty());
        QVERIFY(lab.statusLabel()->text().contains(
            QStringLiteral("const float* g, const float* u, float* out, int N")));
        QVERIFY(lab.setExpression(QStringLiteral("out = g *"))
                    .contains(QStringLiteral("at character")));
        QCOMPARE(lab.buffers()->table()->rowCount(), 3);
        lab.loadStarter(0);
        QVERIFY(!lab.expressionEdit()->isVisibleTo(&lab));
    }

    // On a GPU the Lab offers counters, and Run then asks the CLI to measure them.
    void countersAreOfferedOnAGpuAndRunAsksForThem() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString argsFile = dir.filePath(QStringLiteral("args.txt"));
        const QString cli = dir.filePath(QStringLiteral("recording-cli"));
        QFile script(cli);
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write(QStringLiteral("#!/bin/sh\necho \"$@\" > '%1'\n").arg(argsFile).toUtf8());
        script.close();
        script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        qputenv("FUSESCOPE_CLI", cli.toUtf8());
        LabView lab;
        lab.setGpu(false, QStringLiteral("no CUDA device"));
        QVERIFY(!lab.countersBox()->isVisibleTo(&lab));
        lab.setGpu(true, QString());
        QVERIFY(lab.countersBox()->isVisibleTo(&lab));
        lab.countersBox()->setChecked(true);
        QSignalSpy ran(&lab, &LabView::runFinished);
        lab.run();
        QVERIFY(ran.wait(kBuildWaitMs));
        QFile args(argsFile);
        QVERIFY(args.open(QIODevice::ReadOnly));
        const QString asked = QString::fromUtf8(args.readAll());
        QVERIFY2(asked.contains(QStringLiteral("--kernel-file")), qPrintable(asked));
        QVERIFY2(asked.contains(QStringLiteral("--measure counters")), qPrintable(asked));
    }

    void aCompileThatNeverEndsIsStoppedAndTheNextBuildWorks() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        qputenv("FUSESCOPE_CLI", writeHangingCli(dir).toUtf8());
        LabView lab;
        lab.setTimeLimits(1000, 1000);
        QSignalSpy built(&lab, &LabView::buildFinished);
        lab.build();
        QVERIFY(built.wait(10000));
        QCOMPARE(built.first().at(0).toBool(), false);
        QVERIFY2(lab.statusLabel()->text().contains(QStringLiteral("did not finish within 1 s")),
                 qPrintable(lab.statusLabel()->text()));
        qputenv("FUSESCOPE_CLI", realCli());
        lab.setTimeLimits(kBuildWaitMs, kBuildWaitMs);
        built.clear();
        lab.build();
        QVERIFY(built.wait(kBuildWaitMs));
        QVERIFY2(built.first().at(0).toBool(), qPrintable(lab.statusLabel()->text()));
    }

    void cancelStopsTheChildWithinHalfASecond() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        qputenv("FUSESCOPE_CLI", writeHangingCli(dir).toUtf8());
        LabView lab;
        QSignalSpy built(&lab, &LabView::buildFinished);
        lab.build();
        QTest::qWait(200);
        QVERIFY(lab.busy());
        QElapsedTimer clock;
        clock.start();
        lab.cancel();
        QVERIFY(built.wait(2000));
        QVERIFY2(clock.elapsed() < 500, qPrintable(QString::number(clock.elapsed())));
        QCOMPARE(lab.statusLabel()->text(), QStringLiteral("Build cancelled."));
        QVERIFY(!lab.busy());
    }

    // On a GPU (skipped elsewhere): a kernel that reads far out of bounds and one that never
    // ends are reported in the view; the window's process is untouched and the next run works.
    void onAGpuACrashAndAHangAreReportedAndTheNextRunWorks() {
        if (!probeBackends().cudaUsable) QSKIP("needs a GPU (no usable CUDA device here)");
        LabView lab;
        lab.setGpu(true, {});
        lab.starterCombo()->setCurrentIndex(0);
        const QString starter = lab.editor()->text();
        QSignalSpy ran(&lab, &LabView::runFinished);
        QSignalSpy recorded(&lab, &LabView::recordingReady);
        QString crash = starter;
        crash.replace(QStringLiteral("out[i] = scratch[i] * up[i];"),
                      QStringLiteral("out[i + (1 << 30)] = scratch[i] * up[i];"));
        lab.editor()->setText(crash);
        lab.run();
        QVERIFY(ran.wait(300000));
        QCOMPARE(ran.last().at(0).toBool(), false);
        // The driver names the fault (an illegal address, or an address space the access may not
        // use); the view must say that the learner's kernel broke the GPU context.
        QVERIFY2(ran.last().at(1).toString().contains(QStringLiteral("your kernel failed")),
                 qPrintable(ran.last().at(1).toString()));
        QString hang = starter;
        hang.replace(
            QStringLiteral("int stride = blockDim.x * gridDim.x;"),
            QStringLiteral("int stride = blockDim.x * gridDim.x; long long t0 = clock64(); "
                           "while (clock64() - t0 >= 0) {}"));
        lab.editor()->setText(hang);
        lab.setTimeLimits(kBuildWaitMs, 20000);
        lab.run();
        QVERIFY(ran.wait(60000));
        QCOMPARE(ran.last().at(0).toBool(), false);
        QVERIFY2(ran.last().at(1).toString().contains(QStringLiteral("did not")),
                 qPrintable(ran.last().at(1).toString()));
        lab.setTimeLimits(kBuildWaitMs, 300000);
        lab.editor()->setText(starter);
        lab.run();
        QVERIFY(ran.wait(300000));
        QVERIFY2(ran.last().at(0).toBool(), qPrintable(ran.last().at(1).toString()));
        QCOMPARE(recorded.count(), 1);
    }
};

QTEST_MAIN(LabViewTest)
#include "lab_view_test.moc"

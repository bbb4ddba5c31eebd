// The window against files made to hurt: a recording of 20,000 runs is refused at once with the
// limit it exceeds (it took 6 min 40 s), one at every limit opens and exports within 10 s, a tile
// sweep of 50,000 values per axis is refused (it crashed the window), and HTML in a device name
// is shown as text.

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QProcess>
#include <QtTest>
#include <algorithm>

#include "support/gui_process.h"
#include "support/window_test_case.h"
#include "ui/window/main_window.h"

using namespace fusescope;

namespace {

QJsonObject readObject(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

bool writeObject(const QString& path, const QJsonObject& object) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly) &&
           file.write(QJsonDocument(object).toJson(QJsonDocument::Indented)) > 0;
}

// A valid recording of `count` runs: the seed's runs, repeated.
QJsonObject recordingOfRuns(int count) {
    QJsonObject recording = readObject(
        QStringLiteral(FUSESCOPE_FUZZ_CORPUS_DIR "/recording_loader/cpu-mlp-v2-3x16x24.json"));
    const QJsonArray some = recording[QStringLiteral("runs")].toArray();
    QJsonArray runs;
    for (int k = 0; k < count && !some.isEmpty(); ++k) runs.append(some[k % some.size()]);
    recording[QStringLiteral("runs")] = runs;
    return recording;
}

// At every limit of the loader at once: 32 runs of 8 kernels, 64 timeline spans and allocations
// each (2048 in all), 3125 samples each (100,000 in all) and a device name of 1024 characters.
QJsonObject recordingAtTheLimits() {
    QJsonObject recording = recordingOfRuns(32);
    QJsonObject device = recording[QStringLiteral("device")].toObject();
    device[QStringLiteral("name")] = QString(1024, QLatin1Char('N'));
    recording[QStringLiteral("device")] = device;
    QJsonArray runs = recording[QStringLiteral("runs")].toArray();
    for (qsizetype r = 0; r < runs.size(); ++r) {
        QJsonObject run = runs[r].toObject();
        const QJsonArray some = run[QStringLiteral("kernels")].toArray();
        QJsonArray kernels, timeline, allocations, samples;
        for (int k = 0; k < 8; ++k) {
            QJsonObject kernel = some[k % some.size()].toObject();
            kernel[QStringLiteral("name")] = QStringLiteral("kernel_%1").arg(k);
            kernels.append(kernel);
        }
        for (int e = 0; e < 32; ++e) {
            timeline.append(QJsonObject{{"kind", "kernel"},
                                        {"name", QStringLiteral("kernel_%1").arg(e % 8)},
                                        {"start_ns", e * 10},
                                        {"end_ns", e * 10 + 5},
                                        {"bytes", 100}});
            allocations.append(QJsonObject{{"kind", e % 2 == 0 ? "allocate" : "free"},
                                           {"buffer", QStringLiteral("b%1").arg(e / 2)},
                                           {"bytes", 4096},
                                           {"time_ns", e * 10},
                                           {"in_flight_after", e % 2 == 0 ? 4096 : 0}});
        }
        for (int s = 0; s < 3125; ++s)
            samples.append(QJsonObject{{"time_ns", s * 10000},
                                       {"duration_ns", 10000},
                                       {"read_bytes_per_second", 1e9 * (s % 7)},
                                       {"write_bytes_per_second", 1e8}});
        run[QStringLiteral("kernels")] = kernels;
        run[QStringLiteral("timeline")] = timeline;
        run[QStringLiteral("allocations")] = allocations;
        run[QStringLiteral("samples")] = samples;
        runs[r] = run;
    }
    recording[QStringLiteral("runs")] = runs;
    return recording;
}

// The 10 s the window has. That is a release build's promise: an instrumented build
// (FUSESCOPE_TIMING_SLACK above 1) parses JSON about ten times slower under ASan, more than the
// slack allows, so there the time is reported and what is refused, and how, is still checked.
bool withinTenSeconds(qint64 elapsedMs) {
    if (qEnvironmentVariable("FUSESCOPE_TIMING_SLACK").toDouble() > 1.0) {
        qInfo("%lld ms (instrumented build: not held to 10 s)", static_cast<long long>(elapsedMs));
        return true;
    }
    return elapsedMs < 10000;
}

struct Outcome {
    int exitCode = -1;
    qint64 elapsedMs = 0;
    QString err;
};

Outcome runGui(const QStringList& arguments) {
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    process.setProcessEnvironment(environment);
    QElapsedTimer clock;
    clock.start();
    const testsupport::GuiOutcome finished = testsupport::finishGui(process, arguments, 120000);
    Outcome outcome;
    outcome.exitCode = finished.exitCode;
    outcome.err = finished.err;
    outcome.elapsedMs = clock.elapsed();
    return outcome;
}

Outcome exportCharts(const QString& recording, const QString& folder) {
    return runGui({QStringLiteral("--export-charts"), folder, QStringLiteral("--open"), recording});
}

}  // namespace

class HostileFilesWindowTest : public testsupport::WindowTestCase {
    Q_OBJECT
  private slots:
    void aRecordingOf20000RunsIsRefusedAtOnceNamingTheLimit();
    void aRecordingAtTheLimitsOpensAndExportsWithinTenSeconds();
    void aTileSweepOf50000ValuesPerAxisIsRefusedNotACrash();
    void htmlInADeviceNameIsShownAsText();
    void aScreenshotTargetThatCannotBeWrittenIsRefusedBeforeTheRun();
};

void HostileFilesWindowTest::aRecordingOf20000RunsIsRefusedAtOnceNamingTheLimit() {
    const QString path = folder_->filePath(QStringLiteral("runs-20000.json"));
    QVERIFY(writeObject(path, recordingOfRuns(20000)));
    const Outcome outcome = exportCharts(path, folder_->filePath(QStringLiteral("charts")));
    QVERIFY2(withinTenSeconds(outcome.elapsedMs), qPrintable(QString::number(outcome.elapsedMs)));
    QVERIFY2(outcome.exitCode != 0, qPrintable(outcome.err));
    // Its 2.3 million JSON values pass the first limit; fewer would meet the limit on runs.
    QVERIFY2(outcome.err.contains(QStringLiteral("more than 2000000 JSON values, the limit")),
             qPrintable(outcome.err));
}

void HostileFilesWindowTest::aRecordingAtTheLimitsOpensAndExportsWithinTenSeconds() {
    const QString path = folder_->filePath(QStringLiteral("at-the-limits.json"));
    QVERIFY(writeObject(path, recordingAtTheLimits()));
    const QString charts = folder_->filePath(QStringLiteral("charts"));
    const Outcome outcome = exportCharts(path, charts);
    QVERIFY2(outcome.exitCode == 0, qPrintable(outcome.err));
    QVERIFY2(withinTenSeconds(outcome.elapsedMs), qPrintable(QString::number(outcome.elapsedMs)));
    QVERIFY(!QDir(charts).entryList(QDir::Files).isEmpty());
}

void HostileFilesWindowTest::aTileSweepOf50000ValuesPerAxisIsRefusedNotACrash() {
    QJsonObject sweep =
        readObject(QStringLiteral(FUSESCOPE_SHIPPED_DIR "/tiles-mlp-decode1-bf16-h200.json"));
    QJsonArray values;
    for (int k = 0; k < 50000; ++k) values.append(16);
    QJsonArray axes = sweep[QStringLiteral("axes")].toArray();
    QVERIFY(axes.size() >= 2);
    for (qsizetype a = 0; a < 2; ++a) {
        QJsonObject axis = axes[a].toObject();
        axis[QStringLiteral("values")] = values;
        axes[a] = axis;
    }
    sweep[QStringLiteral("axes")] = axes;
    const QString path = folder_->filePath(QStringLiteral("tiles-50000.json"));
    QVERIFY(writeObject(path, sweep));
    MainWindow window(folder_->settings());
    QElapsedTimer clock;
    clock.start();
    const QString error = window.openRecording(path);
    QVERIFY2(clock.elapsed() < 2000, qPrintable(QString::number(clock.elapsed())));
    QVERIFY2(error.contains(QStringLiteral("limit of 64")), qPrintable(error));
}

void HostileFilesWindowTest::htmlInADeviceNameIsShownAsText() {
    MainWindow window(folder_->settings());
    const QString error = window.openRecording(QStringLiteral(
        FUSESCOPE_HOSTILE_CORPUS_DIR "/recording_loader/loads-device-name-html.json"));
    QVERIFY2(error.isEmpty(), qPrintable(error));
    auto* banner = window.findChild<QLabel*>(QStringLiteral("replayBanner"));
    QVERIFY(banner);
    QCOMPARE(banner->textFormat(), Qt::PlainText);
    QVERIFY2(banner->text().contains(QStringLiteral("<b>H200</b>")), qPrintable(banner->text()));
}

// A dangling link as --screenshot failed only after the run.
void HostileFilesWindowTest::aScreenshotTargetThatCannotBeWrittenIsRefusedBeforeTheRun() {
    const QString dangling = folder_->filePath(QStringLiteral("shot.png"));
    QVERIFY(QFile::link(folder_->filePath(QStringLiteral("missing/nowhere.png")), dangling));
    const Outcome outcome =
        runGui({QStringLiteral("--screenshot"), dangling, QStringLiteral("--run"),
                QStringLiteral("affine"), QStringLiteral("--backend"), QStringLiteral("cpu")});
    QVERIFY2(outcome.exitCode != 0, qPrintable(outcome.err));
    QVERIFY2(outcome.err.contains(QStringLiteral("does not exist")), qPrintable(outcome.err));
    QVERIFY2(!outcome.err.contains(QStringLiteral("affine")) ||
                 outcome.err.contains(QStringLiteral("--screenshot")),
             qPrintable(outcome.err));
}

QTEST_MAIN(HostileFilesWindowTest)
#include "hostile_files_window_test.moc"

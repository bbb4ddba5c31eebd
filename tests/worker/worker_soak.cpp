// Many consecutive runs through the worker, as the window makes them: host memory (RSS) and the
// device's free memory at the start of each run must not grow beyond a stated bound. Without
// arguments it is CI's short version (the CPU backend); on a GPU machine:
//   worker_soak --backend cuda --runs 1000 --pipeline swiglu --n 16777216
// Prints the figures at checkpoints and exits 1 when a bound is broken.
#include <unistd.h>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QTimer>
#include <cstdio>

#include "worker/run_controller.h"

using namespace fusescope;

namespace {

// Resident set size of this process, from /proc/self/statm (pages).
qint64 residentBytes() {
    QFile statm(QStringLiteral("/proc/self/statm"));
    if (!statm.open(QIODevice::ReadOnly)) return -1;
    const QList<QByteArray> fields = statm.readAll().split(' ');
    if (fields.size() < 2) return -1;
    return fields[1].toLongLong() * sysconf(_SC_PAGESIZE);
}

double mib(qint64 bytes) {
    return static_cast<double>(bytes) / (1024.0 * 1024.0);
}

}  // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption runs(QStringLiteral("runs"), QStringLiteral("Runs (default 200)."),
                                  QStringLiteral("count"), QStringLiteral("200"));
    const QCommandLineOption backend(QStringLiteral("backend"),
                                     QStringLiteral("cpu (default) or cuda."),
                                     QStringLiteral("name"), QStringLiteral("cpu"));
    const QCommandLineOption pipeline(QStringLiteral("pipeline"),
                                      QStringLiteral("Pipeline (default swiglu)."),
                                      QStringLiteral("name"), QStringLiteral("swiglu"));
    const QCommandLineOption elements(QStringLiteral("n"),
                                      QStringLiteral("Elements per array (default 65536)."),
                                      QStringLiteral("N"), QStringLiteral("65536"));
    const QCommandLineOption hostBound(
        QStringLiteral("rss-growth-mib"),
        QStringLiteral("Most host RSS growth allowed after the warm-up runs (default 64)."),
        QStringLiteral("MiB"), QStringLiteral("64"));
    const QCommandLineOption deviceBound(
        QStringLiteral("device-growth-mib"),
        QStringLiteral("Most device memory lost after the warm-up runs (default 16)."),
        QStringLiteral("MiB"), QStringLiteral("16"));
    parser.addOptions({runs, backend, pipeline, elements, hostBound, deviceBound});
    parser.process(app);

    const int total = parser.value(runs).toInt();
    const bool cuda = parser.value(backend) == QStringLiteral("cuda");
    RunCommand command;
    command.request.pipeline = parser.value(pipeline).toStdString();
    command.request.problem.dimensions["N"] = parser.value(elements).toULongLong();
    command.request.settings.repeats = 3;
    command.request.settings.warmup = 1;
    command.request.target.backend = cuda ? BackendChoice::Cuda : BackendChoice::Cpu;
    command.measure.reset();  // timing runs, as most of a lesson's runs are

    RunController controller;
    // Allocators and caches settle in the first runs; growth is measured after them.
    const int warmupRuns = std::min(10, std::max(1, total / 10));
    qint64 rssAfterWarmup = 0;
    quint64 freeAfterWarmup = 0;
    qint64 rss = 0;
    quint64 deviceFree = 0;
    QElapsedTimer clock;
    clock.start();
    for (int run = 1; run <= total; ++run) {
        QEventLoop loop;
        QString failure;
        QObject::connect(&controller, &RunController::runFinished, &loop,
                         [&](const model::Recording& recording) {
                             deviceFree = recording.device.freeMemoryBytes;
                             loop.quit();
                         });
        QObject::connect(&controller, &RunController::runFailed, &loop, [&](const QString& why) {
            failure = why;
            loop.quit();
        });
        controller.submit(command);
        loop.exec();
        if (!failure.isEmpty()) {
            std::fprintf(stderr, "run %d failed: %s\n", run, qPrintable(failure));
            return 2;
        }
        rss = residentBytes();
        if (run == warmupRuns) {
            rssAfterWarmup = rss;
            freeAfterWarmup = deviceFree;
        }
        if (run == 1 || run == warmupRuns || run % std::max(1, total / 10) == 0 || run == total)
            std::printf("run %5d  %7.1f s  host RSS %8.1f MiB  device free %10.1f MiB\n", run,
                        clock.elapsed() / 1000.0, mib(rss), mib(static_cast<qint64>(deviceFree)));
        std::fflush(stdout);
    }
    const double rssGrowth = mib(rss - rssAfterWarmup);
    const double deviceLoss =
        mib(static_cast<qint64>(freeAfterWarmup) - static_cast<qint64>(deviceFree));
    std::printf(
        "%d runs (%s, %s, N = %s): host RSS grew %.1f MiB after run %d (bound %s MiB); "
        "device free memory fell %.1f MiB (bound %s MiB)\n",
        total, qPrintable(parser.value(backend)), qPrintable(parser.value(pipeline)),
        qPrintable(parser.value(elements)), rssGrowth, warmupRuns,
        qPrintable(parser.value(hostBound)), deviceLoss, qPrintable(parser.value(deviceBound)));
    const bool hostOk = rssGrowth <= parser.value(hostBound).toDouble();
    // On the CPU backend "device memory" is the machine's, which other processes move: the RSS
    // bound covers this process there.
    const bool deviceOk = !cuda || deviceLoss <= parser.value(deviceBound).toDouble();
    if (!hostOk || !deviceOk) {
        std::printf("FAIL: %s%s\n", hostOk ? "" : "host memory grew beyond its bound ",
                    deviceOk ? "" : "device memory was lost beyond its bound");
        return 1;
    }
    std::printf("OK\n");
    return 0;
}

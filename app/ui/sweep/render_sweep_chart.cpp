// fusescope-sweep-chart: renders a sweep file (from `fusescope-cli sweep --json`) to a PNG, with
// no display needed: a sweep measured on a GPU server without Qt is charted here.
#include <QApplication>
#include <QStringList>
#include <cstdio>

#include "model/sweep_chart_conversion.h"
#include "ui/sweep/sweep_chart.h"

namespace {

int fail(const QString& message, int code) {
    std::fprintf(stderr, "fusescope-sweep-chart: %s\n", message.toUtf8().constData());
    return code;
}

}  // namespace

int main(int argc, char** argv) {
    // Headless by default: this tool only renders files.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication application(argc, argv);
    const QStringList arguments = QApplication::arguments();
    if (arguments.size() != 3 && arguments.size() != 5)
        return fail(QStringLiteral("usage: fusescope-sweep-chart SWEEP.json OUT.png "
                                   "[--size WIDTHxHEIGHT]"),
                    2);
    int width = 1200, height = 900;
    if (arguments.size() == 5) {
        const QStringList size = arguments[4].split(QLatin1Char('x'));
        bool widthOk = false, heightOk = false;
        if (arguments[3] == QLatin1String("--size") && size.size() == 2) {
            width = size[0].toInt(&widthOk);
            height = size[1].toInt(&heightOk);
        }
        if (!widthOk || !heightOk || width < 200 || height < 200 || width > 8000 || height > 8000)
            return fail(QStringLiteral("--size %1: use WIDTHxHEIGHT, 200 to 8000 pixels each")
                            .arg(arguments.value(4)),
                        2);
    }
    fusescope::Result<fusescope::model::SweepFile> sweep =
        fusescope::model::loadSweepFile(arguments[1]);
    if (!sweep) return fail(QString::fromStdString(sweep.status().message()), 2);
    fusescope::SweepChart chart;
    chart.resize(width, height);
    chart.setData(fusescope::model::sweepChartData(*sweep));
    if (const QString error = chart.exportPng(arguments[2], width, height); !error.isEmpty())
        return fail(error, 3);
    return 0;
}

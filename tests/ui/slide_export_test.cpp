// --export-charts for every kind of file a class uses (a recording, a size sweep, a tile sweep,
// two recordings and two sweeps compared) at the slide preset: every chart with data and every
// table with rows is written, no image is larger than the slide, and no file carries a hint meant
// for the pointer ("hover a bar", the stage's approximate cursor).
#include <QDir>
#include <QImage>
#include <QtTest>

#include "support/settings_folder.h"
#include "ui/window/headless.h"
#include "ui/window/main_window.h"

using namespace fusescope;

namespace {

const QString kShipped = QStringLiteral(FUSESCOPE_SHIPPED_DIR);

// Words that make sense only with a pointer on a screen.
const QStringList kHints{QStringLiteral("hover"), QStringLiteral("approximate cursor"),
                         QStringLiteral("click"), QStringLiteral("drag")};

}  // namespace

class SlideExportTest : public QObject {
    Q_OBJECT
  private slots:
    void everyKindOfFileExportsForSlides_data();
    void everyKindOfFileExportsForSlides();
};

void SlideExportTest::everyKindOfFileExportsForSlides_data() {
    QTest::addColumn<QString>("open");
    QTest::addColumn<QString>("compare");
    QTest::addColumn<QStringList>("expected");  // files that must be among those written
    QTest::newRow("recording") << kShipped + "/h200-mlp-prefill-4096-bf16.fusescope.json"
                               << QString()
                               << QStringList{"bytes_per_kernel.svg",     "time_per_variant.svg",
                                              "allocation_in_flight.svg", "bandwidth_over_time.svg",
                                              "variantTable.csv",         "measurementTable.csv"};
    QTest::newRow("size sweep") << kShipped + "/h200-swiglu-size-sweep.fusescope.json" << QString()
                                << QStringList{"size_sweep.png", "size_sweep.svg", "size_sweep.pdf",
                                               "sweepPoints.csv"};
    QTest::newRow("tile sweep") << kShipped + "/tiles-mlp-classroom-bf16-h200.json" << QString()
                                << QStringList{"tile_heatmap.png", "tile_heatmap.svg",
                                               "tile_roofline.png", "tile_roofline.pdf"};
    QTest::newRow("compared recordings")
        << kShipped + "/h200-mlp-decode-1-bf16.fusescope.json"
        << kShipped + "/h200-mlp-decode-16-bf16.fusescope.json"
        << QStringList{"time_compared.svg", "bandwidth_compared.svg", "compareRatios.csv",
                       "bytes_per_kernel.svg"};
    QTest::newRow("compared sweeps") << kShipped + "/h200-swiglu-size-sweep.fusescope.json"
                                     << kShipped + "/h200-swiglu-size-sweep.fusescope.json"
                                     << QStringList{"size_sweeps_compared.svg", "size_sweep.svg"};
}

void SlideExportTest::everyKindOfFileExportsForSlides() {
    QFETCH(QString, open);
    QFETCH(QString, compare);
    QFETCH(QStringList, expected);
    testsupport::SettingsFolder folder;
    QVERIFY(folder.isValid());
    MainWindow window(folder.settings());
    LaunchOptions options;
    options.exportDirectory = folder.filePath(QStringLiteral("slides"));
    options.exportPreset = QStringLiteral("slide");
    options.openPath = open;
    options.comparePath = compare;
    QCOMPARE(runHeadless(window, options), 0);

    const QDir slides(options.exportDirectory);
    const QStringList files = slides.entryList(QDir::Files, QDir::Name);
    for (const QString& name : expected)
        QVERIFY2(files.contains(name), qPrintable(name + " not in " + files.join(' ')));
    int images = 0;
    for (const QString& name : files) {
        const QString path = slides.filePath(name);
        if (name.endsWith(QLatin1String(".png"))) {
            const QImage image(path);
            QVERIFY2(!image.isNull(), qPrintable(name));
            QVERIFY2(image.width() <= 1920 && image.height() <= 1080,
                     qPrintable(QStringLiteral("%1 is %2x%3, larger than the slide")
                                    .arg(name)
                                    .arg(image.width())
                                    .arg(image.height())));
            ++images;
        }
        if (name.endsWith(QLatin1String(".svg"))) {
            QFile file(path);
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QString svg = QString::fromUtf8(file.readAll());
            for (const QString& hint : kHints)
                QVERIFY2(!svg.contains(hint, Qt::CaseInsensitive),
                         qPrintable(QStringLiteral("%1 says '%2'").arg(name, hint)));
        }
    }
    QVERIFY(images >= 2);
}

QTEST_MAIN(SlideExportTest)
#include "slide_export_test.moc"

// Text and controls a classroom can read in every theme: each label of the window, drawn in its
// own palette role, keeps a WCAG contrast of 4.5:1 against the role it is drawn on, and the memory
// stage's transport icons keep 3:1 (WCAG's ratio for controls) against their button.
#include <QApplication>
#include <QLabel>
#include <QTabWidget>
#include <QToolButton>
#include <QtTest>

#include "support/shown_window.h"
#include "support/window_test_case.h"
#include "ui/charts/plot.h"
#include "ui/window/appearance.h"
#include "ui/window/main_window.h"

using namespace fusescope;

namespace {

constexpr double kTextContrast = 4.5;
constexpr double kControlContrast = 3.0;

// A colour as drawn over an opaque background: Qt's own placeholder colour, for one, is the text
// colour at half opacity, and only its blend with the background is what the eye gets.
QColor over(const QColor& color, const QColor& background) {
    const double alpha = color.alphaF();
    const auto mix = [alpha](double top, double bottom) {
        return top * alpha + bottom * (1 - alpha);
    };
    return QColor::fromRgbF(static_cast<float>(mix(color.redF(), background.redF())),
                            static_cast<float>(mix(color.greenF(), background.greenF())),
                            static_cast<float>(mix(color.blueF(), background.blueF())));
}

// The highest contrast any clearly drawn pixel of the icon has against the background: the
// glyph's own colour, antialiased edges aside.
double iconContrast(const QIcon& icon, const QColor& background) {
    const QImage image =
        icon.pixmap(QSize(32, 32)).toImage().convertToFormat(QImage::Format_ARGB32);
    double best = 1.0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QColor pixel = image.pixelColor(x, y);
            if (pixel.alpha() < 200) continue;
            best = std::max(best, contrastRatio(over(pixel, background), background));
        }
    return best;
}

// Each text a chart draws, against what it is drawn on: its own box where it has one, else the
// chart's background as rendered. Hidden texts, empty ones and charts of nothing are skipped.
QStringList unreadableTexts(QCustomPlot* plot) {
    plot->replot();
    const QImage rendered = plot->toPixmap(400, 300, 1.0).toImage();
    const QColor background = rendered.pixelColor(1, 1);
    QStringList problems;
    const auto check = [&](const QString& what, const QColor& text, const QColor& on) {
        const double ratio = contrastRatio(over(text, on), on);
        if (ratio < kTextContrast)
            problems << QStringLiteral("chart %1: %2 %3:1 (%4 on %5)")
                            .arg(plot->objectName(), what)
                            .arg(ratio, 0, 'f', 2)
                            .arg(text.name(), on.name());
    };
    for (QCPLayoutElement* element : plot->plotLayout()->elements(true)) {
        if (auto* text = qobject_cast<QCPTextElement*>(element);
            text && text->visible() && !text->text().isEmpty())
            check(QStringLiteral("text '%1'").arg(text->text().left(30)), text->textColor(),
                  background);
        if (auto* legend = qobject_cast<QCPLegend*>(element);
            legend && legend->visible() && legend->itemCount() > 0)
            check(QStringLiteral("legend"), legend->textColor(), background);
    }
    for (QCPAxisRect* rect : plot->axisRects()) {
        if (!rect->visible()) continue;
        for (QCPAxis* axis : rect->axes()) {
            if (!axis->visible()) continue;
            if (axis->tickLabels())
                check(QStringLiteral("tick labels"), axis->tickLabelColor(), background);
            if (!axis->label().isEmpty())
                check(QStringLiteral("axis label '%1'").arg(axis->label()), axis->labelColor(),
                      background);
        }
    }
    for (int i = 0; i < plot->itemCount(); ++i) {
        auto* text = qobject_cast<QCPItemText*>(plot->item(i));
        if (!text || !text->visible() || text->text().isEmpty()) continue;
        const bool boxed =
            text->brush().style() != Qt::NoBrush && text->brush().color().alpha() > 200;
        check(QStringLiteral("label '%1'").arg(text->text().left(30)), text->color(),
              boxed ? text->brush().color() : background);
    }
    return problems;
}

}  // namespace

class ContrastTest : public testsupport::WindowTestCase {
    Q_OBJECT
  private slots:
    void readableInEveryTheme_data();
    void readableInEveryTheme();
    void everyChartReadsAfterATheme_data();
    void everyChartReadsAfterATheme();
};

void ContrastTest::readableInEveryTheme_data() {
    QTest::addColumn<int>("theme");
    QTest::newRow("system") << int(Theme::System);
    QTest::newRow("light") << int(Theme::Light);
    QTest::newRow("dark") << int(Theme::Dark);
}

void ContrastTest::readableInEveryTheme() {
    QFETCH(int, theme);
    applyTheme(static_cast<Theme>(theme));
    MainWindow window(folder_->settings());
    QVERIFY(testsupport::showAt(window, QSize(1280, 720)));

    QStringList problems;
    int labels = 0;
    for (const QLabel* label : window.findChildren<QLabel*>()) {
        if (label->text().isEmpty() || !label->isEnabled()) continue;
        const QPalette& palette = label->palette();
        const QColor text = palette.color(QPalette::Active, label->foregroundRole());
        const QColor background = palette.color(QPalette::Active, label->backgroundRole());
        const double ratio = contrastRatio(over(text, background), background);
        ++labels;
        if (ratio < kTextContrast)
            problems << QStringLiteral("label '%1' (role %2 on %3): %4:1")
                            .arg(label->objectName().isEmpty() ? label->text().left(40)
                                                               : label->objectName())
                            .arg(int(label->foregroundRole()))
                            .arg(int(label->backgroundRole()))
                            .arg(ratio, 0, 'f', 2);
    }
    // The run panel's own notes are among them (they once were the faint placeholder colour).
    QVERIFY(window.findChild<QLabel*>(QStringLiteral("cacheHint")));
    QVERIFY(labels > 10);

    int icons = 0;
    auto* stage = window.findChild<QWidget*>(QStringLiteral("memoryStage"));
    QVERIFY(stage);
    for (const QToolButton* button : stage->findChildren<QToolButton*>()) {
        if (button->icon().isNull()) continue;
        ++icons;
        // Raised buttons lie on the window until the pointer is over them.
        const QPalette& palette = button->palette();
        const double ratio = std::min(
            iconContrast(button->icon(), palette.color(QPalette::Active, QPalette::Button)),
            iconContrast(button->icon(), palette.color(QPalette::Active, QPalette::Window)));
        if (ratio < kControlContrast)
            problems << QStringLiteral("stage button '%1': icon %2:1 on its button or the window")
                            .arg(button->toolTip())
                            .arg(ratio, 0, 'f', 2);
    }
    QCOMPARE(icons, 4);  // restart, previous, play, next
    if (!problems.isEmpty()) qInfo().noquote() << problems.join(QLatin1Char('\n'));
    QVERIFY2(problems.isEmpty(), qPrintable(problems.value(0)));
}

void ContrastTest::everyChartReadsAfterATheme_data() {
    QTest::addColumn<int>("from");
    QTest::addColumn<int>("to");
    QTest::newRow("light to dark") << int(Theme::Light) << int(Theme::Dark);
    QTest::newRow("dark to light") << int(Theme::Dark) << int(Theme::Light);
}

// A theme chosen with charts on screen (View > Theme), then files of every kind opened: each
// chart's text (the bandwidth chart's kernel names among them) reads on its background.
void ContrastTest::everyChartReadsAfterATheme() {
    QFETCH(int, from);
    QFETCH(int, to);
    applyTheme(static_cast<Theme>(from));
    MainWindow window(folder_->settings());
    QVERIFY(testsupport::showAt(window, QSize(1280, 720)));
    const QString shipped = QStringLiteral(FUSESCOPE_SHIPPED_DIR);
    QCOMPARE(window.openRecording(shipped + "/h200-swiglu-2e26.fusescope.json"), QString());
    window.setTheme(static_cast<Theme>(to));
    QTest::qWait(50);  // as after a click on the menu: the event loop turns
    QStringList problems;
    int charts = 0;
    int kernelNames = 0;
    for (const char* file :
         {"/h200-swiglu-2e26.fusescope.json", "/h200-mlp-classroom-bf16.fusescope.json",
          "/h200-swiglu-size-sweep.fusescope.json", "/tiles-mlp-classroom-bf16-h200.json"}) {
        QCOMPARE(window.openRecording(shipped + QLatin1String(file)), QString());
        QTest::qWait(100);  // queued rebuilds and the bandwidth chart's coalesced replot
        for (QCustomPlot* plot : window.findChildren<QCustomPlot*>()) {
            ++charts;
            problems << unreadableTexts(plot);
            // The bandwidth chart's kernel names (in their lane, on the spans' layer) were drawn.
            for (int i = 0; i < plot->itemCount(); ++i)
                if (auto* name = qobject_cast<QCPItemText*>(plot->item(i));
                    name && name->visible() && name->layer() == plot->layer("spans"))
                    ++kernelNames;
        }
    }
    // The bandwidth chart's kernel names were among the texts checked.
    auto* bandwidth = window.findChild<QCustomPlot*>(QStringLiteral("bandwidth_over_time"));
    QVERIFY(bandwidth);
    if (const QString shots = qEnvironmentVariable("FUSESCOPE_LAYOUT_SHOTS"); !shots.isEmpty()) {
        QCOMPARE(window.openRecording(shipped + "/h200-swiglu-2e26.fusescope.json"), QString());
        window.chartTabs()->setCurrentWidget(bandwidth->parentWidget());
        QTest::qWait(100);
        window.grab().save(QStringLiteral("%1/bandwidth-%2-1280x720.png")
                               .arg(shots, QString::fromLatin1(QTest::currentDataTag())
                                               .replace(QLatin1Char(' '), QLatin1Char('-'))));
    }
    QVERIFY(charts >= 4 * 7);
    QVERIFY(kernelNames > 0);
    problems.removeDuplicates();
    if (!problems.isEmpty()) qInfo().noquote() << problems.join(QLatin1Char('\n'));
    QVERIFY2(problems.isEmpty(), qPrintable(problems.value(0)));
}

QTEST_MAIN(ContrastTest)
#include "contrast_test.moc"

// Text and controls a classroom can read in every theme: each label of the window, drawn in its
// own palette role, keeps a WCAG contrast of 4.5:1 against the role it is drawn on, and the memory
// stage's transport icons keep 3:1 (WCAG's ratio for controls) against their button.
#include <QApplication>
#include <QLabel>
#include <QSettings>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

#include "ui/appearance.h"
#include "ui/main_window.h"

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

}  // namespace

class ContrastTest : public QObject {
    Q_OBJECT
  private slots:
    void readableInEveryTheme_data();
    void readableInEveryTheme();
};

void ContrastTest::readableInEveryTheme_data() {
    QTest::addColumn<int>("theme");
    QTest::newRow("system") << int(Theme::System);
    QTest::newRow("light") << int(Theme::Light);
    QTest::newRow("dark") << int(Theme::Dark);
}

void ContrastTest::readableInEveryTheme() {
    QFETCH(int, theme);
    QTemporaryDir directory;
    QVERIFY(directory.isValid());
    QSettings settings(directory.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat);
    applyTheme(static_cast<Theme>(theme));
    MainWindow window(&settings);
    window.resize(1280, 720);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));

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

QTEST_MAIN(ContrastTest)
#include "contrast_test.moc"

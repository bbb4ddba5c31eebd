#include "ui/window/appearance.h"

#include <QApplication>
#include <QFont>
#include <QStyle>
#include <QStyleFactory>
#include <algorithm>
#include <cmath>

namespace fusescope {
namespace {

// What the application started with, taken before the first change.
struct Original {
    QString styleName;
    QPalette palette;
    QFont font;
};

const Original& original() {
    static const Original taken{QApplication::style()->name(), QApplication::palette(),
                                QApplication::font()};
    return taken;
}

}  // namespace

QString themeKey(Theme theme) {
    switch (theme) {
        case Theme::Light:
            return QStringLiteral("light");
        case Theme::Dark:
            return QStringLiteral("dark");
        case Theme::System:
            break;
    }
    return QStringLiteral("system");
}

Theme themeFromKey(const QString& key) {
    if (key == QLatin1String("light")) return Theme::Light;
    if (key == QLatin1String("dark")) return Theme::Dark;
    return Theme::System;
}

QPalette lightPalette() {
    QPalette palette;
    const QColor window(239, 239, 239), base(Qt::white), text(20, 20, 20);
    palette.setColor(QPalette::Window, window);
    palette.setColor(QPalette::WindowText, text);
    palette.setColor(QPalette::Base, base);
    palette.setColor(QPalette::AlternateBase, QColor(246, 246, 246));
    palette.setColor(QPalette::Text, text);
    palette.setColor(QPalette::Button, window);
    palette.setColor(QPalette::ButtonText, text);
    palette.setColor(QPalette::BrightText, Qt::white);
    palette.setColor(QPalette::ToolTipBase, QColor(255, 255, 220));
    palette.setColor(QPalette::ToolTipText, text);
    palette.setColor(QPalette::PlaceholderText, QColor(100, 100, 100));
    palette.setColor(QPalette::Highlight, QColor(30, 100, 200));
    palette.setColor(QPalette::HighlightedText, Qt::white);
    palette.setColor(QPalette::Link, QColor(0, 80, 180));
    palette.setColor(QPalette::Light, Qt::white);
    palette.setColor(QPalette::Midlight, QColor(227, 227, 227));
    palette.setColor(QPalette::Mid, QColor(160, 160, 160));
    palette.setColor(QPalette::Dark, QColor(120, 120, 120));
    palette.setColor(QPalette::Shadow, QColor(80, 80, 80));
    // Disabled text stays legible (3:1) so that a projector still shows what is greyed out.
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        palette.setColor(QPalette::Disabled, role, QColor(118, 118, 118));
    return palette;
}

QPalette darkPalette() {
    QPalette palette;
    const QColor window(37, 39, 43), base(27, 28, 31), text(235, 235, 235);
    palette.setColor(QPalette::Window, window);
    palette.setColor(QPalette::WindowText, text);
    palette.setColor(QPalette::Base, base);
    palette.setColor(QPalette::AlternateBase, QColor(45, 47, 52));
    palette.setColor(QPalette::Text, text);
    palette.setColor(QPalette::Button, QColor(50, 53, 58));
    palette.setColor(QPalette::ButtonText, text);
    palette.setColor(QPalette::BrightText, Qt::white);
    palette.setColor(QPalette::ToolTipBase, QColor(55, 57, 62));
    palette.setColor(QPalette::ToolTipText, text);
    palette.setColor(QPalette::PlaceholderText, QColor(165, 165, 165));
    palette.setColor(QPalette::Highlight, QColor(60, 130, 225));
    palette.setColor(QPalette::HighlightedText, Qt::white);
    palette.setColor(QPalette::Link, QColor(120, 180, 255));
    palette.setColor(QPalette::Light, QColor(75, 78, 84));
    palette.setColor(QPalette::Midlight, QColor(60, 63, 68));
    palette.setColor(QPalette::Mid, QColor(95, 98, 104));
    palette.setColor(QPalette::Dark, QColor(20, 21, 23));
    palette.setColor(QPalette::Shadow, Qt::black);
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        palette.setColor(QPalette::Disabled, role, QColor(140, 140, 140));
    return palette;
}

void applyTheme(Theme theme) {
    const Original& started = original();
    if (theme == Theme::System) {
        if (QStyle* style = QStyleFactory::create(started.styleName)) QApplication::setStyle(style);
        QApplication::setPalette(started.palette);
        return;
    }
    if (QStyle* fusion = QStyleFactory::create(QStringLiteral("Fusion")))
        QApplication::setStyle(fusion);
    QApplication::setPalette(theme == Theme::Dark ? darkPalette() : lightPalette());
}

double clampZoom(double zoom) {
    if (!std::isfinite(zoom)) return 1.0;
    return std::clamp(zoom, kMinZoom, kMaxZoom);
}

void applyZoom(double zoom) {
    const double factor = clampZoom(zoom);
    QFont font = original().font;
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * factor);
    else
        font.setPixelSize(std::max(1, static_cast<int>(std::lround(font.pixelSize() * factor))));
    QApplication::setFont(font);
}

QFont presentationFont(QFont font, double logicalDpi) {
    const double dpi = logicalDpi > 0 ? logicalDpi : 96.0;
    const double leastPoints = kPresentationTextPixels * 72.0 / dpi;
    const double points = font.pointSizeF() > 0 ? font.pointSizeF() : font.pixelSize() * 72.0 / dpi;
    font.setPointSizeF(std::max(points, leastPoints));
    return font;
}

}  // namespace fusescope

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

namespace {

struct ThemeWord {
    Theme theme;
    const char* key;
};
// System is the fallback of both directions: any other key means it.
constexpr ThemeWord kThemeWords[] = {{Theme::Light, "light"}, {Theme::Dark, "dark"}};

// One colour a role takes in the light and in the dark theme.
struct RoleColours {
    QPalette::ColorRole role;
    QColor light;
    QColor dark;
};

QPalette themePalette(bool dark) {
    const QColor lightWindow(239, 239, 239), lightText(20, 20, 20);
    const QColor darkWindow(37, 39, 43), darkText(235, 235, 235);
    const RoleColours colours[] = {
        {QPalette::Window, lightWindow, darkWindow},
        {QPalette::WindowText, lightText, darkText},
        {QPalette::Base, Qt::white, QColor(27, 28, 31)},
        {QPalette::AlternateBase, QColor(246, 246, 246), QColor(45, 47, 52)},
        {QPalette::Text, lightText, darkText},
        {QPalette::Button, lightWindow, QColor(50, 53, 58)},
        {QPalette::ButtonText, lightText, darkText},
        {QPalette::BrightText, Qt::white, Qt::white},
        {QPalette::ToolTipBase, QColor(255, 255, 220), QColor(55, 57, 62)},
        {QPalette::ToolTipText, lightText, darkText},
        {QPalette::PlaceholderText, QColor(100, 100, 100), QColor(165, 165, 165)},
        {QPalette::Highlight, QColor(30, 100, 200), QColor(60, 130, 225)},
        {QPalette::HighlightedText, Qt::white, Qt::white},
        {QPalette::Link, QColor(0, 80, 180), QColor(120, 180, 255)},
        {QPalette::Light, Qt::white, QColor(75, 78, 84)},
        {QPalette::Midlight, QColor(227, 227, 227), QColor(60, 63, 68)},
        {QPalette::Mid, QColor(160, 160, 160), QColor(95, 98, 104)},
        {QPalette::Dark, QColor(120, 120, 120), QColor(20, 21, 23)},
        {QPalette::Shadow, QColor(80, 80, 80), Qt::black},
    };
    QPalette palette;
    for (const RoleColours& colour : colours)
        palette.setColor(colour.role, dark ? colour.dark : colour.light);
    // Disabled text stays legible (3:1) so that a projector still shows what is greyed out.
    const QColor disabledText = dark ? QColor(140, 140, 140) : QColor(118, 118, 118);
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        palette.setColor(QPalette::Disabled, role, disabledText);
    return palette;
}

}  // namespace

QString themeKey(Theme theme) {
    for (const ThemeWord& word : kThemeWords)
        if (word.theme == theme) return QLatin1String(word.key);
    return QStringLiteral("system");
}

Theme themeFromKey(const QString& key) {
    for (const ThemeWord& word : kThemeWords)
        if (key == QLatin1String(word.key)) return word.theme;
    return Theme::System;
}

QPalette lightPalette() {
    return themePalette(false);
}

QPalette darkPalette() {
    return themePalette(true);
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

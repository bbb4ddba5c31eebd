#pragma once
// How the whole window looks on a classroom projector: the theme (the system's, or Fusion light
// or dark) and a presentation zoom that scales every text of the application. Both apply to the
// QApplication and are remembered in QSettings by the main window.
#include <QFont>
#include <QPalette>
#include <QString>

#include "ui/charts/colour_contrast.h"

namespace fusescope {

enum class Theme { System, Light, Dark };

QString themeKey(Theme theme);           // "system", "light", "dark"
Theme themeFromKey(const QString& key);  // System for anything unknown

// The palettes of the light and dark themes; their text roles keep a contrast of at least 4.5:1
// (WCAG AA) against the backgrounds they are drawn on.
QPalette lightPalette();
QPalette darkPalette();

// Sets the style and palette of the application; System restores those it started with.
void applyTheme(Theme theme);

// Zoom steps of the presentation zoom, as a factor of the application's own font size.
constexpr double kZoomStep = 1.15;
constexpr double kMinZoom = 0.7;
constexpr double kMaxZoom = 3.0;
double clampZoom(double zoom);
// Scales the application font from the one it started with (the factor, not compounding).
void applyZoom(double zoom);

// The presentation layout's least text size, in logical pixels: readable from the back row of a
// classroom on a 1280x720 projector.
constexpr int kPresentationTextPixels = 16;
// `font` made at least kPresentationTextPixels high on a screen of `logicalDpi` (kept in points, as
// the rest of the program scales fonts by their point size).
QFont presentationFont(QFont font, double logicalDpi);

}  // namespace fusescope

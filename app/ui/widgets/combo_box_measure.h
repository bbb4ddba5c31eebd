#pragma once
// Qt 6.4's QComboBox measures its least size once, in the font it has then, and keeps it after
// its font changes: grown by the presentation layout or a zoom, a combo box that its layout gives
// only that least width shows its text cut ("4 (16-byte load"). Once installed, every combo box
// of the application measures its least size again, in its new font, when the font changes.
#include <QCoreApplication>

namespace fusescope {

// Idempotent: one watcher serves every window of the application.
void remeasureComboBoxesOnFontChange(QCoreApplication* application);

}  // namespace fusescope

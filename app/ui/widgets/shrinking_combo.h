#pragma once
// A combo box that asks room for a few characters only: a longer entry is cut in the closed box
// (its list shows it whole), so that a narrow column stays narrow at any zoom.
#include <QComboBox>
#include <QString>

namespace fusescope {

inline QComboBox* shrinkingCombo(QWidget* parent, const QString& name, int shownCharacters) {
    auto* combo = new QComboBox(parent);
    combo->setObjectName(name);
    combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    combo->setMinimumContentsLength(shownCharacters);
    return combo;
}

}  // namespace fusescope

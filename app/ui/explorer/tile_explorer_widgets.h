#pragma once
// Small widget helpers the tile explorer's files share.
#include <QComboBox>
#include <QLabel>
#include <QString>
#include <string>

#include "model/pipeline_catalog.h"

namespace fusescope::explorer {

inline QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

inline QComboBox* valueCombo(const TuningSpec& tuning, QWidget* parent) {
    auto* combo = new QComboBox(parent);
    for (int value : tuning.allowed) combo->addItem(QString::number(value), value);
    combo->setToolTip(qs(tuning.help));
    return combo;
}

inline void selectValue(QComboBox* combo, int value) {
    const int index = combo->findData(value);
    if (index >= 0) combo->setCurrentIndex(index);
}

// Text that wraps in the narrow control column and can be selected for a slide or a report.
inline QLabel* wrappingLabel(QWidget* parent, const QString& name) {
    auto* label = new QLabel(parent);
    label->setObjectName(name);
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);  // names and paths from files, never HTML
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

}  // namespace fusescope::explorer

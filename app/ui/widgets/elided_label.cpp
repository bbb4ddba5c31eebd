#include "ui/widgets/elided_label.h"

#include <QResizeEvent>
#include <algorithm>

namespace fusescope {

ElidedLabel::ElidedLabel(QWidget* parent) : QLabel(parent) {
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    setTextFormat(Qt::PlainText);
}

void ElidedLabel::setFullText(const QString& text) {
    fullText_ = text;
    setToolTip(text);
    elide();
    updateGeometry();
}

void ElidedLabel::setWrapped(bool wrapped) {
    setWordWrap(wrapped);
    setSizePolicy(QSizePolicy::Ignored,
                  wrapped ? QSizePolicy::MinimumExpanding : QSizePolicy::Preferred);
    elide();
    updateGeometry();
}

QSize ElidedLabel::minimumSizeHint() const {
    if (wordWrap()) return {0, heightForWidth(std::max(width(), 1))};
    return {0, fontMetrics().height()};
}

QSize ElidedLabel::sizeHint() const {
    if (wordWrap()) return {width(), heightForWidth(std::max(width(), 1))};
    return {fontMetrics().horizontalAdvance(fullText_), fontMetrics().height()};
}

void ElidedLabel::resizeEvent(QResizeEvent* event) {
    QLabel::resizeEvent(event);
    elide();
}

void ElidedLabel::elide() {
    setText(wordWrap() ? fullText_ : fontMetrics().elidedText(fullText_, Qt::ElideRight, width()));
}

}  // namespace fusescope

#pragma once
// A one-line label that shows as much of its text as its width allows, ending in "…", with the
// whole text in its tooltip: long sentences beside a title without taking a second line.
#include <QLabel>

namespace fusescope {

class ElidedLabel : public QLabel {
  public:
    explicit ElidedLabel(QWidget* parent = nullptr);
    void setFullText(const QString& text);
    const QString& fullText() const { return fullText_; }
    // Wrapped, the whole text shows on as many lines as it needs (the presentation layout, where
    // a class cannot hover for the tooltip); otherwise one elided line.
    void setWrapped(bool wrapped);
    bool wrapped() const { return wordWrap(); }

    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

  protected:
    void resizeEvent(QResizeEvent* event) override;

  private:
    void elide();

    QString fullText_;
};

}  // namespace fusescope

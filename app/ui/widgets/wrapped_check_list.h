#pragma once
// A list of checkable items whose titles wrap at the list's width, and which is exactly as tall
// as its items: every title whole at any width and font (a narrow panel, 150% scaling, the
// presentation layout), with no scroll bar and no "…".
#include <QListWidget>

namespace fusescope {

class WrappedCheckList : public QListWidget {
  public:
    explicit WrappedCheckList(QWidget* parent = nullptr);
    ~WrappedCheckList() override;

  protected:
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

  private:
    // Lays the items out at the width of now and takes their height; later, as a width or
    // font change may come from a layout pass under way.
    void fitHeightLater();
    void fitHeight();

    bool fitPending_ = false;
};

}  // namespace fusescope

#pragma once
// A lesson on screen: the presenter filling a window (full screen in presenter mode), the
// driver behind it, and on a second screen, where there is one, the teacher's notes and the
// next step. Esc hides it and goes back to the full window.
#include <QWidget>
#include <memory>

#include "ui/lesson/lesson_driver.h"

class QLabel;

namespace fusescope {

class LessonPresenter;

class LessonWindow : public QWidget {
    Q_OBJECT
  public:
    explicit LessonWindow(std::unique_ptr<LessonDriver> driver, QWidget* parent = nullptr);
    ~LessonWindow() override;

    LessonDriver* driver() const { return driver_.get(); }
    LessonPresenter* presenter() const { return presenter_; }
    QWidget* notesWindow() const { return notes_.get(); }

    // Full screen on the window's screen, with the notes on another screen where there is one.
    void present();
    void refresh();

  signals:
    void left();

  private:
    void exportAnswers();

    std::unique_ptr<LessonDriver> driver_;
    LessonPresenter* presenter_ = nullptr;
    std::unique_ptr<QWidget> notes_;
    QLabel* notesText_ = nullptr;
};

}  // namespace fusescope

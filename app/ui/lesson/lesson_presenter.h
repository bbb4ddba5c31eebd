#pragma once
// Presenter mode: one lesson step fills the screen, readable from the back of a room (body text
// 24 px at 1280x720). First the step's text and its question in large type with the class's
// answers, then the reveal: the measured value beside each prediction with how far off, the
// reason, and the memory stage at the moment that answers. Space and the arrow keys move on,
// Esc leaves. It paints a LessonStepView and emits what the teacher asks for.
#include <QWidget>

#include "ui/lesson/lesson_step_view.h"

class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace fusescope {

class MemoryStageWidget;

// The least pixel size of the presenter's body text at 1280x720.
inline constexpr int kPresenterBodyPixels = 24;

class LessonPresenter : public QWidget {
    Q_OBJECT
  public:
    explicit LessonPresenter(QWidget* parent = nullptr);

    void setView(const LessonStepView& view);
    // Shown under the answer field: a refused answer's reason, or empty.
    void setMessage(const QString& message);

    QLineEdit* answerField() const { return answer_; }
    QSpinBox* handsField() const { return hands_; }
    MemoryStageWidget* stage() const { return stage_; }

  signals:
    void answerGiven(QString answer, int hands);
    void revealAsked();
    void forwardAsked();
    void backAsked();
    void leaveAsked();
    void exportAsked();

  protected:
    void keyPressEvent(QKeyEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    void submitAnswer();

    QLabel* heading_ = nullptr;
    QLabel* source_ = nullptr;
    QLabel* text_ = nullptr;
    QLabel* question_ = nullptr;
    QLabel* hint_ = nullptr;
    QLineEdit* answer_ = nullptr;
    QSpinBox* hands_ = nullptr;
    QPushButton* add_ = nullptr;
    QPushButton* reveal_ = nullptr;
    QLabel* message_ = nullptr;
    QLabel* answers_ = nullptr;
    QLabel* measured_ = nullptr;
    QLabel* numbers_ = nullptr;
    QLabel* reasonAside_ = nullptr;  // under the stage, or in its place
    QWidget* entry_ = nullptr;
    MemoryStageWidget* stage_ = nullptr;
};

}  // namespace fusescope

#pragma once
// The stage's toolbar: restart, previous/next kernel, play/pause, a scrub slider, the run's
// playing time (speed), lesson mode, full screen and export. It drives a StagePlayer.
#include <QIcon>
#include <QWidget>

class QComboBox;
class QLabel;
class QSlider;
class QToolButton;

namespace fusescope {

class StagePlayer;

class StageControls : public QWidget {
    Q_OBJECT
  public:
    explicit StageControls(StagePlayer* player, QWidget* parent = nullptr);

    void setLessonChecked(bool lesson);
    void setFullScreenChecked(bool fullScreen);

  signals:
    void lessonModeToggled(bool lesson);
    void fullScreenToggled(bool fullScreen);
    void exportPngRequested();
    void exportSvgRequested();
    void exportGifRequested();

  protected:
    void changeEvent(QEvent* event) override;

  private:
    enum class Transport { Restart, Previous, Play, Pause, Next };
    static QIcon transportIcon(Transport kind, const QColor& color);
    void paintIcons();
    void showPosition(qint64 stageNs);
    void showPlaying(bool playing);

    StagePlayer* player_;
    QToolButton* restartButton_;
    QToolButton* previousButton_;
    QToolButton* playButton_;
    QToolButton* nextButton_;
    QToolButton* lessonButton_;
    QToolButton* fullScreenButton_;
    QSlider* slider_;
    QComboBox* speed_;
    QLabel* timeLabel_;
    bool sliderBeingSet_ = false;
    bool playing_ = false;
};

}  // namespace fusescope

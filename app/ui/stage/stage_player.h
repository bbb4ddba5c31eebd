#pragma once
// The stage's clock: plays a timeline of durationNs in playSeconds of wall time (5 to 20 s),
// steps from kernel to kernel, scrubs and seeks. Positions are stage time in ns.
#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <QVector>

namespace fusescope {

class StagePlayer : public QObject {
    Q_OBJECT
  public:
    static constexpr double kMinPlaySeconds = 5.0;
    static constexpr double kMaxPlaySeconds = 20.0;

    explicit StagePlayer(QObject* parent = nullptr);

    void setDuration(qint64 durationNs);
    // Kernel starts and ends of every pane: the stops of stepToNextKernel / stepToPreviousKernel.
    void setStops(QVector<qint64> stopsNs);
    qint64 duration() const { return durationNs_; }
    qint64 position() const { return positionNs_; }
    bool isPlaying() const { return timer_.isActive(); }
    double playSeconds() const { return playSeconds_; }

  public slots:
    void play();
    void pause();
    void togglePlayPause();
    void restart();
    void seek(qint64 stageNs);
    void scrubBy(double fractionOfDuration);
    void stepToNextKernel();
    void stepToPreviousKernel();
    void setPlaySeconds(double seconds);

  signals:
    void positionChanged(qint64 stageNs);
    void playingChanged(bool playing);
    void playSecondsChanged(double seconds);

  private:
    void tick();
    void setPositionInternal(qint64 stageNs);

    QTimer timer_;
    QElapsedTimer clock_;
    qint64 lastTickNs_ = 0;
    qint64 durationNs_ = 0;
    qint64 positionNs_ = 0;
    double playSeconds_ = 10.0;
    QVector<qint64> stops_;
};

}  // namespace fusescope

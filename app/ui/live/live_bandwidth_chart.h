#pragma once
// DRAM read and write bandwidth over time as it is sampled, with each kernel as a labelled span
// under the curves, the copy roofline as a line, a data-source badge, and below it, on the same
// time axis, the bytes allocated in flight with the peak marked. Fed plain data; replots through
// a coalescing timer (at most ~30 Hz), never per sample.
// Cursors (one per run the memory stage shows) cross both charts at the animation's position;
// their moves are coalesced to one per frame and redraw only the cursor layer. A press or drag
// on either chart emits timeClicked with the time on the samples' clock.
#include <QElapsedTimer>
#include <QTimer>
#include <QWidget>

#include "live/live_types.h"

class QCustomPlot;
class QCPAxisRect;
class QCPGraph;
class QCPItemStraightLine;
class QCPItemRect;
class QCPItemText;
class QCPItemTracer;
class QMouseEvent;

namespace fusescope::live {

class LiveBandwidthChart : public QWidget {
    Q_OBJECT
  public:
    explicit LiveBandwidthChart(QWidget* parent = nullptr);
    ~LiveBandwidthChart() override;

    QCustomPlot* plot() const { return plot_; }
    int replotCount() const { return replots_; }
    int sampleCount() const { return samples_; }
    quint64 peakBytesInFlight() const { return peakBytes_; }
    double longestReplotMs() const { return longestReplotMs_; }  // for latency diagnostics
    // Bytes of all samples so far (binning for display keeps them).
    double totalReadBytes() const;
    double totalWriteBytes() const;
    // The curves show at most this many points: samples are averaged into time bins whose width
    // doubles as the run grows, so a replot costs the same after a second or after a minute.
    static constexpr int kMaxPoints = 1024;

    // Cursor `index` (0 or 1: the stage's left and right run) at ns on the samples' clock.
    void setCursor(int index, qint64 clockNs, const QString& label);
    void hideCursor(int index);
    // A line under the curves saying how the cursor relates to the data ("approximate: ...").
    void setCursorNote(const QString& note);
    static constexpr int kCursorCount = 2;
    bool cursorVisible(int index) const;
    qint64 cursorNs(int index) const;  // where the cursor is drawn (after the coalesced move)
    QString cursorNote() const;
    QString dataSource() const;  // the badge's text
    int cursorReplotCount() const { return cursorReplots_; }
    qint64 originNs() const { return originNs_; }
    // Frame time of coalesced cursor moves (default 16 ms: about 60 Hz).
    void setCursorIntervalMs(int milliseconds) { cursorFrameMs_ = milliseconds; }
    // The time at a pixel column of the plot (ns on the samples' clock).
    qint64 clockNsAtPixel(double x) const;

    // Milliseconds between replots at most often (default 33: about 30 Hz).
    void setRefreshIntervalMs(int milliseconds) { refresh_.setInterval(milliseconds); }

  public slots:
    void appendSamples(const QVector<fusescope::live::LiveSample>& batch);
    void addKernelSpan(const QString& name, qint64 startNs, qint64 endNs);
    void addAllocationSpan(const QString& name, quint64 bytes, qint64 startNs, qint64 endNs);
    void setRoofline(double gigabytesPerSecond);
    void setDataSource(const QString& badge);
    // Time zero of the axis (ns on the samples' clock); the first sample's start by default.
    void setOrigin(qint64 originNs);
    void clear();

  signals:
    void timeClicked(qint64 clockNs);

  private:
    struct Cursor {
        QCPItemStraightLine* bandwidthLine = nullptr;
        QCPItemStraightLine* allocationLine = nullptr;
        QCPItemText* label = nullptr;
        bool visible = false;
        qint64 ns = 0;
        QString text;
    };
    void applyCursors();
    void scheduleCursorFrame();
    void onMouse(QMouseEvent* event);

    void scheduleReplot();
    void replotNow();
    void rebuildAllocationCurve();
    void rebuildBandwidthCurves();
    void addToBins(const LiveSample& sample);
    void cullKernelLabels();
    double toMs(qint64 ns) const;

    QCustomPlot* plot_ = nullptr;
    QCPAxisRect* bandwidthRect_ = nullptr;
    QCPAxisRect* allocationRect_ = nullptr;
    QCPGraph* read_ = nullptr;
    QCPGraph* write_ = nullptr;
    QCPGraph* inFlight_ = nullptr;
    QCPItemStraightLine* roofline_ = nullptr;
    QCPItemText* rooflineLabel_ = nullptr;
    QCPItemText* badge_ = nullptr;
    QCPItemTracer* peakMarker_ = nullptr;
    QCPItemText* peakLabel_ = nullptr;
    QTimer refresh_;
    QTimer cursorFrame_;
    QElapsedTimer lastCursorDraw_;
    int cursorFrameMs_ = 16;
    Cursor cursors_[kCursorCount];
    Cursor pendingCursors_[kCursorCount];
    QCPItemText* cursorNote_ = nullptr;
    int cursorReplots_ = 0;
    bool dirty_ = false;
    bool originSet_ = false;
    qint64 originNs_ = 0;
    double maxGBps_ = 0.0;
    double rooflineGBps_ = 0.0;
    double lastMs_ = 0.0;
    int samples_ = 0;
    int replots_ = 0;
    double longestReplotMs_ = 0.0;
    quint64 peakBytes_ = 0;
    QVector<LiveAllocationSpan> allocations_;
    QVector<QCPItemText*> kernelLabels_;  // in start order; shown where there is room

    struct Bin {
        qint64 index = 0;  // start = origin + index * binNs_
        double readBytes = 0.0;
        double writeBytes = 0.0;
        qint64 coveredNs = 0;  // sampled time inside the bin
    };
    QVector<Bin> bins_;
    qint64 binNs_ = 0;
    bool curvesDirty_ = false;
};

}  // namespace fusescope::live

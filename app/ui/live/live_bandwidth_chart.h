#pragma once
// DRAM read and write bandwidth over time as it is sampled, drawn as a min/max envelope of the
// samples in each pixel-wide bin (a peak stays a peak at any zoom), with each kernel as a shaded
// span under the curves and its name in a lane of its own below them (names never overlap each
// other or the curves; a click on a name zooms to that kernel), the copy roofline as a line, the
// legend and the data-source badge in rows above the plot, and below it, on the same time axis
// (milliseconds, seconds past 10 s), the bytes allocated in flight with the peak marked. Fed
// plain data; replots through a coalescing timer (at most ~30 Hz), never per sample.
// Cursors (one per run the memory stage shows) cross both charts at the animation's position;
// their moves are coalesced to one per frame and redraw only the cursor layer. A press or drag
// on either chart emits timeClicked with the time on the samples' clock.
// "Kernels only" collapses the idle time between kernels: the axis then runs in kernel time (the
// kernels back to back, a dashed break where idle time was cut out), the samples between kernels
// are left out, and the cursors, clicks and exports follow the same axis.
#include <QElapsedTimer>
#include <QTimer>
#include <QWidget>

#include "charts/log_scale.h"
#include "live/live_types.h"

class QCustomPlot;
class QCPAxisRect;
class QCPErrorBars;
class QCPGraph;
class QCPLegend;
class QCPItemStraightLine;
class QCPItemRect;
class QCPItemText;
class QCPItemTracer;
class QCPRange;
class QCPTextElement;
class QCheckBox;
class QMouseEvent;

namespace fusescope::live {

class LiveBandwidthChart : public QWidget {
    Q_OBJECT
  public:
    explicit LiveBandwidthChart(QWidget* parent = nullptr);
    ~LiveBandwidthChart() override;

    QCustomPlot* plot() const { return plot_; }
    int replotCount() const { return replots_; }
    // New data waits for the coalesced replot that will draw it.
    bool replotPending() const { return dirty_; }
    int sampleCount() const { return samples_; }
    quint64 peakBytesInFlight() const { return peakBytes_; }
    double longestReplotMs() const { return longestReplotMs_; }  // for latency diagnostics
    // Bytes of all samples so far (binning for display keeps them).
    double totalReadBytes() const;
    double totalWriteBytes() const;
    // The curves show at most this many points: the samples in view are gathered into as many
    // time bins, each drawn as the least and the most rate sampled in it.
    static constexpr int kMaxPoints = 1024;
    // The kernels' names in their lane: how many are shown now, and a click's zoom.
    int shownKernelLabels() const;
    int kernelCount() const { return static_cast<int>(kernels_.size()); }
    // Zooms the time axis to kernel `index` (in start order) with a little room either side.
    void zoomToKernel(int index);
    // The kernel whose name is drawn at `at` (plot pixels), or -1.
    int kernelLabelAt(const QPointF& at) const;
    // The time axis follows the samples until the user zooms or pans it.
    bool followsSamples() const;
    // Idle time between kernels cut out of the axis (the "Kernels only" box); the view returns
    // to the whole run.
    void setKernelsOnly(bool kernelsOnly);
    bool kernelsOnly() const { return kernelsOnly_; }
    int breakMarkerCount() const;  // the dashed lines where idle time was cut out
    // The rate axis: by itself logarithmic where the kernels' median rates lie more than
    // kLogScaleSpread apart (kernel_rates.h), or always one kind (View > Value axes).
    void setValueScale(ValueScale scale);
    ValueScale valueScale() const { return valueScale_; }
    bool rateAxisLogarithmic() const;
    // Where a time on the samples' clock is drawn on the time axis (ms), and back.
    double axisMsAt(qint64 clockNs) const;
    qint64 clockNsAtAxisMs(double ms) const;

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

  protected:
    void changeEvent(QEvent* event) override;

  private:
    void applyPalette();
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
    void placeKernelLabels();
    void setTimeRange(double lowerMs, double upperMs);
    double toMs(qint64 ns) const;
    // The kernels merged into busy stretches and everything placed on the axis again: spans,
    // names, breaks, the allocation curve and the cursors (after a kernel or a switch of view).
    void rebuildTimeMap();
    bool idleBetweenKernels(qint64 startNs, qint64 endNs) const;
    void applyTimeUnits(const QCPRange& range);
    void applyRateAxis();

    QCustomPlot* plot_ = nullptr;
    QCPAxisRect* bandwidthRect_ = nullptr;
    QCPAxisRect* allocationRect_ = nullptr;
    QCPGraph* read_ = nullptr;
    QCPGraph* write_ = nullptr;
    QCPGraph* inFlight_ = nullptr;
    QCPItemStraightLine* roofline_ = nullptr;
    QCPItemText* rooflineLabel_ = nullptr;
    QCPTextElement* title_ = nullptr;
    QCPTextElement* badge_ = nullptr;
    QCPLegend* legend_ = nullptr;
    QCPAxisRect* kernelLane_ = nullptr;
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
    ValueScale valueScale_ = ValueScale::Automatic;
    double rooflineGBps_ = 0.0;
    int samples_ = 0;
    int replots_ = 0;
    double longestReplotMs_ = 0.0;
    quint64 peakBytes_ = 0;
    QString allocationAxisName_;  // whole, as the fitter may elide the axis's own label
    QVector<LiveAllocationSpan> allocations_;
    struct KernelMark {
        QString name;
        qint64 startNs = 0;
        qint64 endNs = 0;
        double startMs = 0.0;  // on the axis as it is now
        double endMs = 0.0;
        QCPItemRect* span = nullptr;
        QCPItemText* label = nullptr;
    };
    // A stretch with at least one kernel running, and where it starts on the kernels-only axis.
    struct BusyStretch {
        qint64 startNs = 0;
        qint64 endNs = 0;
        double axisMs = 0.0;
    };
    QVector<BusyStretch> busy_;  // filled in kernels-only view, in time order
    QVector<QCPItemStraightLine*> breaks_;
    bool kernelsOnly_ = false;
    QCheckBox* kernelsOnlyBox_ = nullptr;
    qint64 lastNs_ = 0;  // the latest end of a sample, kernel or allocation
    bool anyTime_ = false;
    bool cursorsStale_ = false;
    QVector<KernelMark> kernels_;  // in start order
    int laneRows_ = 1;

    QVector<LiveSample> samplesInOrder_;  // every sample, by start time
    double totalReadBytes_ = 0.0;
    double totalWriteBytes_ = 0.0;
    QCPErrorBars* readBand_ = nullptr;  // from the most down to the least of each bin
    QCPErrorBars* writeBand_ = nullptr;
    struct MsRange {
        double lower = 0.0;
        double upper = 0.0;
        bool operator==(const MsRange&) const = default;
    };
    MsRange binnedRange_;  // the time range the curves were binned for
    bool curvesDirty_ = false;
    // The time range the chart set itself last: any other is the user's zoom or pan.
    MsRange ownTimeRange_;
};

}  // namespace fusescope::live

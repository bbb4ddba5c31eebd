#pragma once
// Paints the memory stage for one instant: HBM arrays as rows of tiles, the SMs with their
// register files, the flows between them, pass counters, bytes moved and the allocation gauge,
// for one run or two side by side on one time scale. Plain data in, pixels out: the widget, the
// exporters and the benchmark all paint through it (it also works off the GUI thread on a QImage).
#include <QFont>
#include <QImage>
#include <QRectF>
#include <QSize>
#include <QStaticText>
#include <QString>
#include <QStringList>
#include <QVector>
#include <optional>

#include "model/stage/stage_state.h"
#include "model/stage/stage_timeline.h"
#include "ui/stage/stage_caption.h"
#include "ui/stage/stage_theme.h"

class QPainter;

namespace fusescope {

class StageRenderer {
  public:
    void setTimelines(const model::StageTimeline& left, const model::StageTimeline* right);
    void setCaption(const StageCaptionContext& caption);
    void setTheme(const StageTheme& theme);
    const StageTheme& theme() const { return theme_; }
    const StageCaptionContext& caption() const { return caption_; }

    bool hasTimelines() const { return paneCount() > 0; }
    int paneCount() const { return timelines_.size(); }
    const model::StageTimeline& timeline(int side) const { return timelines_[side]; }
    qint64 durationNs() const;  // the longer run's end: the shared time scale

    // Brings the state of every pane to stage time timeNs (done by paint too).
    void updateState(qint64 timeNs);
    const model::StageState& state(int side) const { return panes_[side].state; }

    // Paints the frame at timeNs into the rectangle (0, 0, size). With cacheStatic the parts that
    // do not move are drawn once into an image; vector targets (SVG) pass false.
    void paint(QPainter& painter, const QSize& size, qint64 timeNs, bool cacheStatic = true);

    // The least pixel size of any text (0: none, as for exports at a chosen size). On a frame too
    // small for the full stage at that size, detail is dropped: the SM register files, then the
    // time strip, then the caption's second line, and the size under each array's name, then
    // the boxes of totals under the arrays.
    void setMinimumFontPixels(double pixels);
    int detailLevel() const { return detailLevel_; }  // 0: everything shown
    // The least height at which the stage at this width fits with the least detail (its
    // comparison wrapped as it needs): below it, text would be drawn over text.
    int leastHeight(int width) const;
    static constexpr int kLeastDetail = 5;  // no SM files, time strip or totals' boxes
    // False when even the least detail does not fit the last frame's height at that type size:
    // then parts of the stage overlap.
    bool fitsHeight() const { return fitsHeight_; }

    // Every text a frame of that size draws at timeNs, where and how large: for layout checks.
    struct DrawnText {
        QString text;
        QRectF rect;
        int pixelSize = 0;
    };
    QVector<DrawnText> textLayout(const QSize& size, qint64 timeNs);
    // Where pane `side` was laid out for the last frame (for layout checks).
    QRectF paneRect(int side) const { return panes_.value(side).rect; }

  private:
    struct Row {
        int array = -1;  // index into the timeline's arrays; -1: the fused variant's absent
                         // intermediate, drawn as a ghost
        QColor color;
        QColor touchedColor;  // tiles already swept in the pass under way
        QRectF label;
        QRectF tiles;
        QRectF counter;
        QVector<QRectF> tileRects;
        QVector<int> sweeps;   // indices into the timeline's sweeps touching this array
        QVector<QRectF> dots;  // one per sweep, or one for the pass under way (see passCount)
        // Too many passes for one line of dots at the least dot size: one dot for the pass under
        // way and "×N" in passCount.
        QRectF passCount;
        QString passCountText;
        QPointF smEntry;
    };
    struct Pane {
        QRectF rect, header, gantt, hbmLabel, hbm, flow, smLabel, sm, stats;
        QRectF passesBox, bytesBox, allocBox, bytesBar, allocBar;
        QVector<Row> rows;
        QVector<QRectF> smBoxes;
        QVector<QRectF> registerCells;
        QVector<QColor> registerColors;  // scratch space, reused every frame
        QVector<QString> kernelInfo;     // per kernel: bytes, time and rate, formatted once
        QVector<QString> kernelRate;     // per kernel: the rate alone, for narrow panes
        model::StageState state;
        bool statusShown = true;  // the header's second line: phase, kernel and its numbers
    };

    void layout(const QSize& size);
    void layoutPane(int side, const QRectF& rect);
    void drawStatic(QPainter& painter) const;
    void drawStaticPane(QPainter& painter, int side) const;
    void drawDynamic(QPainter& painter);
    void drawDynamicPane(QPainter& painter, int side);
    void drawRows(QPainter& painter, int side) const;
    void drawFlows(QPainter& painter, int side) const;
    void drawRegisters(QPainter& painter, int side);
    void drawStats(QPainter& painter, int side) const;
    void drawHeaderStatus(QPainter& painter, int side) const;
    double ganttX(const Pane& pane, qint64 timeNs) const;
    void drawTimeStrip(QPainter& painter, int side) const;
    void drawStaticRows(QPainter& painter, int side) const;
    // drawText that also notes the text's rectangle while textLayout() is asking.
    void drawLabel(QPainter& painter, const QRectF& rect, int flags, const QString& text) const;
    void recordText(const QPainter& painter, const QRectF& rect, const QString& text) const;
    // "read 256x" over an array's tiles, where it fits.
    void drawTimesRead(QPainter& painter, const QRectF& tiles, double timesRead) const;
    int maxRowCount() const;
    QString memoryShortName() const;  // "HBM", "memory"
    // The row's pass dots in its counter: in one line, shrunk down to the least size their letter
    // fits, in two lines where the row is tall enough, else one dot and a "×N" count.
    void layoutPassDots(Row& row, double rowHeight) const;
    // A pass dot's size where the row has room for it; dots stand kPassDotPitch dots apart.
    double preferredDotSize(double rowHeight) const;
    static constexpr double kPassDotPitch = 1.2;
    // The comparison's lines at `width` in the title font, and the room the badge takes from
    // the first.
    QStringList headlineLines(double width) const;
    double headlineBadgeRoom() const;

    QVector<model::StageTimeline> timelines_;
    QVector<Pane> panes_;
    StageCaptionContext caption_;
    StageTheme theme_ = StageTheme::lessonMode();
    QString comparison_;
    QString captionLine_;

    // Layout and static layer, valid for layoutSize_.
    QSize layoutSize_;
    bool layoutValid_ = false;
    QImage staticLayer_;
    bool staticValid_ = false;
    double fontPx_ = 12.0;
    double minimumFontPx_ = 0.0;
    int detailLevel_ = 0;
    bool fitsHeight_ = true;
    double leastHeight_ = 0.0;                 // needed at the least detail, from the last layout
    QVector<DrawnText>* recording_ = nullptr;  // set only inside textLayout()
    QFont font_, boldFont_, titleFont_, bigFont_, smallFont_;
    QRectF captionRect_;
    // The comparison, broken at its " · " where it is wider than the caption (the badge beside
    // its first line): each line whole where one part fits.
    QStringList headlineLines_;
    quint64 bytesScale_ = 1;  // shared by both panes so the bars compare
    quint64 allocScale_ = 1;
    QStaticText readLetter_, writeLetter_, notAllocated_;
};

}  // namespace fusescope

// Writes memory-stage frames as PNGs (normal and lesson theme) and the side-by-side animation as
// a GIF, so a person can look at them. Without --recording it runs SwiGLU scratch vs fused and the
// affine chain unfused vs fused on the CPU backend; with --recording it draws the recording's
// default pair (first unfused run left, first fused run right), e.g. one made on the H200 by
// `fusescope-cli run ... --json run.json`.
// Usage: stage_demo OUTPUT_DIR [--n N] [--recording FILE.json]
#include <QApplication>
#include <QDir>
#include <QImageReader>
#include <QPainter>
#include <QSvgRenderer>
#include <cstdio>

#include "model/recorded_pipelines.h"
#include "model/recording_json.h"
#include "model/stage/stage_timeline.h"
#include "stage_test_runs.h"
#include "ui/stage/memory_stage_view.h"
#include "ui/stage/stage_export.h"

using namespace fusescope;

namespace {

bool writeFrames(const QString& directory, const QString& prefix,
                 const model::Recording& recording) {
    const model::StageRunPair pair = model::defaultStageRunPair(recording);
    if (pair.left < 0 || pair.right < 0) {
        std::fprintf(stderr, "stage_demo: %s has no two runs to compare\n", qPrintable(prefix));
        return false;
    }
    Result<model::StageTimeline> left = model::buildStageTimeline(recording.runs[pair.left]);
    Result<model::StageTimeline> right = model::buildStageTimeline(recording.runs[pair.right]);
    if (!left || !right) {
        std::fprintf(stderr, "stage_demo: %s\n",
                     (left ? right.status() : left.status()).message().c_str());
        return false;
    }
    model::alignStageTimelines(*left, *right);
    StageRenderer renderer;
    renderer.setTimelines(*left, &*right);
    renderer.setCaption(stageCaptionContext(recording, recording.runs[pair.left]));

    // Moments worth a look: allocation, each kernel's middle, the end.
    QVector<QPair<QString, qint64>> moments;
    moments.append({QStringLiteral("alloc"), left->kernelsStartNs * 3 / 4});
    for (const model::StageKernel& kernel : left->kernels)
        moments.append(
            {QStringLiteral("left-") + kernel.name, (kernel.startNs + kernel.endNs) / 2});
    for (const model::StageKernel& kernel : right->kernels)
        moments.append(
            {QStringLiteral("right-") + kernel.name, (kernel.startNs + kernel.endNs) / 2});
    moments.append({QStringLiteral("end"), renderer.durationNs()});

    bool ok = true;
    for (const bool lesson : {false, true}) {
        renderer.setTheme(lesson ? StageTheme::lessonMode()
                                 : StageTheme::normal(QApplication::palette()));
        for (const auto& [name, time] : moments) {
            const QString path = QStringLiteral("%1/%2-%3-%4.png")
                                     .arg(directory, prefix, lesson ? "lesson" : "normal", name);
            const StageExportResult result = exportStagePng(renderer, path, {1920, 1080}, time);
            std::printf("%s %s\n", result.ok ? "wrote" : "FAILED", qPrintable(result.message));
            ok = ok && result.ok;
        }
    }

    // One frame as SVG, and that SVG drawn back by Qt's SVG renderer, to look at.
    {
        const qint64 time = (left->kernels.front().startNs + left->kernels.front().endNs) / 2;
        const QString svg = QStringLiteral("%1/%2-frame.svg").arg(directory, prefix);
        const StageExportResult result = exportStageSvg(renderer, svg, {1920, 1080}, time);
        std::printf("%s %s\n", result.ok ? "wrote" : "FAILED", qPrintable(result.message));
        ok = ok && result.ok;
        QSvgRenderer svgRenderer(svg);
        QImage image(1920, 1080, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        QPainter painter(&image);
        svgRenderer.render(&painter);
        painter.end();
        image.save(QStringLiteral("%1/%2-frame-svg-rendered.png").arg(directory, prefix));
    }

    // The tab as the main window shows it: run pickers, the stage, the toolbar.
    {
        MemoryStageView view;
        view.setRecording(recording);
        view.resize(1600, 900);
        view.seek((left->kernels.front().startNs + left->kernels.front().endNs) / 2);
        const QString path = QStringLiteral("%1/%2-view.png").arg(directory, prefix);
        const bool saved = view.grab().save(path);
        std::printf("%s %s\n", saved ? "wrote" : "FAILED", qPrintable(path));
        ok = ok && saved;
    }

    // The whole side-by-side animation as a GIF, and two of its frames read back as PNGs so the
    // quantised palette can be looked at.
    renderer.setTheme(StageTheme::normal(QApplication::palette()));
    const QString gif = QStringLiteral("%1/%2-side-by-side.gif").arg(directory, prefix);
    StageGifOptions options;
    const StageExportResult result = exportStageGif(renderer, gif, options);
    std::printf("%s %s\n", result.ok ? "wrote" : "FAILED", qPrintable(result.message));
    ok = ok && result.ok;
    if (result.ok) {
        QImageReader reader(gif);
        const int frames = stageGifFrameCount(options);
        for (int frame = 0; frame <= frames / 2; ++frame) {
            const QImage image = reader.read();
            if (image.isNull()) break;
            if (frame != frames / 4 && frame != frames / 2) continue;
            const QString path =
                QStringLiteral("%1/%2-gif-frame-%3.png").arg(directory, prefix).arg(frame);
            image.save(path);
            std::printf("wrote %s\n", qPrintable(path));
        }
    }
    return ok;
}

bool writeCpuFrames(const QString& directory, const QString& pipeline, const QString& unfused,
                    const QString& fused, quint64 n) {
    const model::Recording recording = stagetest::cpuRecording(pipeline, {unfused, fused}, n);
    if (recording.runs.size() != 2) {
        std::fprintf(stderr, "stage_demo: the CPU run of %s failed\n", qPrintable(pipeline));
        return false;
    }
    return writeFrames(directory, pipeline, recording);
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() < 2 || args[1].startsWith(QLatin1Char('-'))) {
        std::fprintf(stderr, "usage: stage_demo OUTPUT_DIR [--n N] [--recording FILE.json]\n");
        return 2;
    }
    const QString directory = args[1];
    quint64 n = 1ull << 22;
    QString recordingPath;
    for (int i = 2; i + 1 < args.size(); ++i) {
        if (args[i] == "--n") n = args[i + 1].toULongLong();
        if (args[i] == "--recording") recordingPath = args[i + 1];
    }
    if (!QDir().mkpath(directory)) {
        std::fprintf(stderr, "stage_demo: cannot create %s\n", qPrintable(directory));
        return 1;
    }
    if (!recordingPath.isEmpty()) {
        Result<model::Recording> recording = model::openRecording(recordingPath);
        if (!recording) {
            std::fprintf(stderr, "stage_demo: %s\n", recording.status().message().c_str());
            return 1;
        }
        const QString prefix = recording->runs.empty()
                                   ? QStringLiteral("recording")
                                   : model::toQString(recording->runs.front().pipeline);
        return writeFrames(directory, prefix, *recording) ? 0 : 1;
    }
    const bool swiglu = writeCpuFrames(directory, "swiglu", "scratch", "fused", n);
    const bool affine = writeCpuFrames(directory, "affine", "unfused", "fused", n);
    return swiglu && affine ? 0 : 1;
}

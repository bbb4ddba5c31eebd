// Writes memory-stage frames of real CPU-backend runs (SwiGLU scratch vs fused, affine unfused vs
// fused) as PNGs, in the normal and the lesson theme, and as GIFs, so a person can look at them.
// Usage: stage_demo OUTPUT_DIR [N]
#include <QApplication>
#include <QDir>
#include <QImageReader>
#include <cstdio>

#include "model/stage/stage_timeline.h"
#include "stage_test_runs.h"
#include "ui/stage/stage_export.h"

using namespace fusescope;

namespace {

bool writeFrames(const QString& directory, const QString& pipeline, const QString& leftVariant,
                 const QString& rightVariant, quint64 n) {
    const model::Recording recording =
        stagetest::cpuRecording(pipeline, {leftVariant, rightVariant}, n);
    if (recording.runs.size() != 2) {
        std::fprintf(stderr, "stage_demo: the CPU run of %s failed\n", qPrintable(pipeline));
        return false;
    }
    Result<model::StageTimeline> left = model::buildStageTimeline(recording.runs[0]);
    Result<model::StageTimeline> right = model::buildStageTimeline(recording.runs[1]);
    if (!left || !right) {
        std::fprintf(stderr, "stage_demo: %s\n",
                     (left ? right.status() : left.status()).message().c_str());
        return false;
    }
    model::alignStageTimelines(*left, *right);
    StageRenderer renderer;
    renderer.setTimelines(*left, &*right);
    renderer.setCaption(stageCaptionContext(recording, recording.runs[0]));

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
                                     .arg(directory, pipeline, lesson ? "lesson" : "normal", name);
            const StageExportResult result = exportStagePng(renderer, path, {1920, 1080}, time);
            std::printf("%s %s\n", result.ok ? "wrote" : "FAILED", qPrintable(result.message));
            ok = ok && result.ok;
        }
    }
    // The whole side-by-side animation as a GIF, and two of its frames read back as PNGs so the
    // quantised palette can be looked at.
    renderer.setTheme(StageTheme::normal(QApplication::palette()));
    const QString gif = QStringLiteral("%1/%2-side-by-side.gif").arg(directory, pipeline);
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
                QStringLiteral("%1/%2-gif-frame-%3.png").arg(directory, pipeline).arg(frame);
            image.save(path);
            std::printf("wrote %s\n", qPrintable(path));
        }
    }
    return ok;
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    if (argc < 2) {
        std::fprintf(stderr, "usage: stage_demo OUTPUT_DIR [N]\n");
        return 2;
    }
    const QString directory = QString::fromLocal8Bit(argv[1]);
    const quint64 n = argc > 2 ? QByteArray(argv[2]).toULongLong() : (1ull << 22);
    if (!QDir().mkpath(directory)) {
        std::fprintf(stderr, "stage_demo: cannot create %s\n", argv[1]);
        return 1;
    }
    const bool swiglu = writeFrames(directory, "swiglu", "scratch", "fused", n);
    const bool affine = writeFrames(directory, "affine", "unfused", "fused", n);
    return swiglu && affine ? 0 : 1;
}

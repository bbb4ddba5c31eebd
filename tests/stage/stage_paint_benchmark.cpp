// Paints the side-by-side memory stage (a CPU-backend SwiGLU scratch vs fused run) at 1920x1080
// offscreen, frame after frame across the whole run, as the 60 Hz animation would. Prints mean,
// p95 and max paint time per theme, in wall time and in CPU time (every thread of the process, in
// case Qt paints in parallel), and fails when every pass's p95 reaches 8 ms (times the timing slack
// of an instrumented build, support/timing_slack.h). The gate is the CPU time: on the shared 2-core
// build machine the wall time also counts the slices the scheduler gives to other people's
// compilers (the load average is printed beside it); on an idle machine the two agree. Usage:
// stage_paint_benchmark [--frames N] [--size WxH]
#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>
#include <QThread>
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <vector>

#include "model/stage/stage_timeline.h"
#include "stage_test_runs.h"
#include "support/timing_slack.h"
#include "ui/stage/stage_renderer.h"

using namespace fusescope;

namespace {

constexpr double kBudgetMs = 8.0;

struct Stats {
    double meanMs = 0, p95Ms = 0, maxMs = 0;
};
struct Figures {
    double firstMs = 0;
    Stats wall, cpu;
};

double processCpuMs() {
    timespec now{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return double(now.tv_sec) * 1e3 + double(now.tv_nsec) / 1e6;
}

Stats statsOf(std::vector<double> times) {
    std::sort(times.begin(), times.end());
    Stats stats;
    double sum = 0;
    for (double t : times) sum += t;
    stats.meanMs = sum / double(times.size());
    stats.p95Ms =
        times[std::min(times.size() - 1, static_cast<std::size_t>(0.95 * double(times.size())))];
    stats.maxMs = times.back();
    return stats;
}

double loadAverage() {
    FILE* file = std::fopen("/proc/loadavg", "r");
    double load = -1;
    if (file) {
        if (std::fscanf(file, "%lf", &load) != 1) load = -1;
        std::fclose(file);
    }
    return load;
}

Figures measure(StageRenderer renderer, const QSize& size, int frames) {
    QImage target(size, QImage::Format_ARGB32_Premultiplied);  // what a backing store paints into
    std::vector<double> wall, cpu;
    wall.reserve(static_cast<std::size_t>(frames));
    cpu.reserve(static_cast<std::size_t>(frames));
    Figures figures;
    const qint64 duration = renderer.durationNs();
    for (int frame = -1; frame < frames; ++frame) {
        const qint64 time = frame < 0 ? 0 : duration * frame / std::max(1, frames - 1);
        QElapsedTimer timer;
        const double cpuStart = processCpuMs();
        timer.start();
        {
            QPainter painter(&target);
            renderer.paint(painter, size, time);
        }
        const double ms = double(timer.nsecsElapsed()) / 1e6;
        const double cpuMs = processCpuMs() - cpuStart;
        if (frame < 0) {
            figures.firstMs = ms;  // builds the static layer once per size and theme
        } else {
            wall.push_back(ms);
            cpu.push_back(cpuMs);
        }
    }
    figures.wall = statsOf(wall);
    figures.cpu = statsOf(cpu);
    return figures;
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    int frames = 300;
    QSize size(1920, 1080);
    const QStringList args = app.arguments();
    for (int i = 1; i + 1 < args.size(); ++i) {
        if (args[i] == "--frames") frames = std::max(10, args[i + 1].toInt());
        if (args[i] == "--size") {
            const QStringList parts = args[i + 1].split('x');
            if (parts.size() == 2) size = QSize(parts[0].toInt(), parts[1].toInt());
        }
    }

    const model::Recording recording =
        stagetest::cpuRecording("swiglu", {"scratch", "fused"}, 1 << 18);
    if (recording.runs.size() != 2) {
        std::fprintf(stderr, "stage_paint_benchmark: the CPU run failed\n");
        return 1;
    }
    Result<model::StageTimeline> left = model::buildStageTimeline(recording.runs[0]);
    Result<model::StageTimeline> right = model::buildStageTimeline(recording.runs[1]);
    if (!left || !right) {
        std::fprintf(stderr, "stage_paint_benchmark: the timelines did not build\n");
        return 1;
    }
    model::alignStageTimelines(*left, *right);
    StageRenderer renderer;
    renderer.setTimelines(*left, &*right);
    renderer.setCaption(stageCaptionContext(recording, recording.runs[0]));

    std::printf(
        "memory stage paint time, %dx%d, side by side, %d frames per theme, load average "
        "%.2f on %d cores\n",
        size.width(), size.height(), frames, loadAverage(), QThread::idealThreadCount());
    const double budgetMs = kBudgetMs * testsupport::timingSlack();
    bool withinBudget = true;
    for (const bool lesson : {false, true}) {
        renderer.setTheme(lesson ? StageTheme::lessonMode() : StageTheme::normal(app.palette()));
        const char* theme = lesson ? "lesson" : "normal";
        // Up to three passes, the best judged: on the shared build machine a pass can lose
        // slices to other work (a fresh clone's p95 once read 8.51 ms at load 2.05, 4.3-5.0 ms
        // idle), while a stage that paints too slowly fails every pass.
        bool themeWithin = false;
        for (int pass = 1; pass <= 3 && !themeWithin; ++pass) {
            const Figures figures = measure(renderer, size, frames);
            std::printf("%s  cpu:  mean %.2f ms  p95 %.2f ms  max %.2f ms  (pass %d)\n", theme,
                        figures.cpu.meanMs, figures.cpu.p95Ms, figures.cpu.maxMs, pass);
            std::printf(
                "%s  wall: mean %.2f ms  p95 %.2f ms  max %.2f ms  (first frame %.2f ms: "
                "static layer)\n",
                theme, figures.wall.meanMs, figures.wall.p95Ms, figures.wall.maxMs,
                figures.firstMs);
            themeWithin = figures.cpu.p95Ms < budgetMs;
        }
        withinBudget = withinBudget && themeWithin;
    }
    if (!withinBudget) {
        std::printf("FAIL: p95 paint CPU time is not under %.0f ms\n", budgetMs);
        return 1;
    }
    std::printf("OK: p95 paint CPU time under %.0f ms\n", budgetMs);
    return 0;
}

// The CPU backend's lesson in numbers, measured in one process: fused SwiGLU against the copy
// roofline, scratch and two-launch SwiGLU against fused, unfused affine against fused, and
// the scalar (width 1) kernels beside them. scripts/test.sh runs it after the tests, so CI
// prints the ratios and a regression shows; it is a benchmark, not a test, and never fails on a
// slow machine. Usage: cpu_lesson_benchmark [--n N] [--repeats R] [--threads T] [--json FILE]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <string>

#include "benchmark_arguments.h"
#include "runtime/backend.h"
#include "runtime/runner.h"

using namespace fusescope;

namespace {

struct Options {
    std::uint64_t n = std::uint64_t{1} << 24;
    int repeats = 10;
    int threads = 0;
    std::string json;
};

bool parse(int argc, char** argv, Options& options) {
    const bool read =
        benchmarks::readKeyValues(argc, argv, [&](const std::string& key, const char* value) {
            if (key == "--n")
                options.n = std::strtoull(value, nullptr, 10);
            else if (key == "--repeats")
                options.repeats = std::atoi(value);
            else if (key == "--threads")
                options.threads = std::atoi(value);
            else if (key == "--json")
                options.json = value;
            else
                return false;
            return true;
        });
    return read && options.n > 0 && options.repeats > 0 && options.threads >= 0;
}

struct Measured {
    RunReport report;
    std::map<std::string, double> timeMs;  // by variant
    double fusedShareOfRoofline = 0.0;     // fused's model GB/s over the copy's
};

bool run(Backend& backend, const Options& options, const std::string& pipeline, int width,
         Measured& measured) {
    RunRequest request;
    request.pipeline = pipeline;
    request.problem = findPipeline(pipeline)->defaultProblem();
    request.problem.dimensions[std::string(kElementCountDimension)] = options.n;
    request.problem.tuning[std::string(kVectorWidthTuning)] = width;
    request.settings.repeats = options.repeats;
    request.settings.warmup = 2;
    request.cpuThreads = options.threads;
    RunObserver quiet;
    Result<RunReport> report = runPipeline(backend, request, quiet);
    if (!report) {
        std::fprintf(stderr, "cpu_lesson_benchmark: %s: %s\n", pipeline.c_str(),
                     report.status().message().c_str());
        return false;
    }
    measured.report = *report;
    for (const VariantResult& variant : report->variants) {
        measured.timeMs[variant.variant] = variant.timeMs;
        if (variant.variant == "fused")
            measured.fusedShareOfRoofline = variant.effectiveGBps() / report->roofline.gbps();
        if (!variant.check.ok)
            std::fprintf(stderr, "cpu_lesson_benchmark: %s %s failed its check\n", pipeline.c_str(),
                         variant.variant.c_str());
    }
    return true;
}

struct Ratio {
    const char* name;
    double value;
    double target;  // at least
};

}  // namespace

int main(int argc, char** argv) {
    Options options;
    if (!parse(argc, argv, options))
        return benchmarks::usageError(
            "cpu_lesson_benchmark [--n N] [--repeats R] [--threads T] [--json FILE]");
    std::unique_ptr<Backend> backend = createCpuBackend(options.threads);
    Measured swiglu, affine, scalarSwiglu;
    if (!run(*backend, options, "swiglu", 4, swiglu) ||
        !run(*backend, options, "affine", 4, affine) ||
        !run(*backend, options, "swiglu", 1, scalarSwiglu))
        return 1;

    const DeviceInfo& device = swiglu.report.device;
    const Ratio ratios[] = {
        {"fused SwiGLU / copy roofline (model GB/s)", swiglu.fusedShareOfRoofline, 0.60},
        {"SwiGLU scratch / fused (time)", swiglu.timeMs["scratch"] / swiglu.timeMs["fused"], 1.4},
        {"SwiGLU two_launch / fused (time)", swiglu.timeMs["two_launch"] / swiglu.timeMs["fused"],
         1.4},
        {"affine unfused / fused (time)", affine.timeMs["unfused"] / affine.timeMs["fused"], 1.8},
        {"scalar fused SwiGLU / copy roofline", scalarSwiglu.fusedShareOfRoofline, 0.0},
        {"scalar SwiGLU scratch / fused (time)",
         scalarSwiglu.timeMs["scratch"] / scalarSwiglu.timeMs["fused"], 0.0},
    };
    std::printf("CPU lesson benchmark: %s, %d threads, %s kernels, N = %llu, median of %d\n",
                device.name.c_str(), device.multiprocessors, device.runtimeVersion.c_str(),
                static_cast<unsigned long long>(options.n), options.repeats);
    std::printf(
        "copy roofline %.1f GB/s; SwiGLU ms: scratch %.2f, two_launch %.2f, fused %.2f; "
        "affine ms: unfused %.2f, fused %.2f\n",
        swiglu.report.roofline.gbps(), swiglu.timeMs["scratch"], swiglu.timeMs["two_launch"],
        swiglu.timeMs["fused"], affine.timeMs["unfused"], affine.timeMs["fused"]);
    for (const Ratio& ratio : ratios) {
        const char* verdict = ratio.target <= 0.0           ? "(for the lesson)"
                              : ratio.value >= ratio.target ? "meets"
                                                            : "BELOW";
        std::printf("  %-44s %6.2f  target >= %.2f  %s\n", ratio.name, ratio.value, ratio.target,
                    verdict);
    }

    if (!options.json.empty()) {
        // Written beside the target and renamed over it, so a failed write leaves the old file.
        const std::string temporary = options.json + ".tmp";
        std::ofstream out(temporary, std::ios::trunc);
        out << "{\"device\": \"" << device.name << "\", \"threads\": " << device.multiprocessors
            << ", \"instruction_set\": \"" << device.runtimeVersion << "\", \"n\": " << options.n
            << ", \"ratios\": {";
        for (std::size_t i = 0; i < std::size(ratios); ++i)
            out << (i ? ", " : "") << "\"" << ratios[i].name << "\": " << ratios[i].value;
        out << "}}\n";
        out.close();
        if (!out || std::rename(temporary.c_str(), options.json.c_str()) != 0) {
            std::remove(temporary.c_str());
            std::fprintf(stderr, "cpu_lesson_benchmark: cannot write %s\n", options.json.c_str());
            return 1;
        }
    }
    return 0;
}

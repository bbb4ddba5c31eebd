// The SwiGLU MLP's variants on the GPU at classroom (bfloat16, float32 and tf32), decode and
// prefill sizes: each checked against the double reference on sampled rows, then timed (CUDA
// events, warm-up, median), beside the copy roofline and a large bf16 GEMM measured in the same
// process.
// With --decode-sweep, also the production decode kernels of Llama-3-8B under each launch choice.
// Usage: mlp_benchmark [--json FILE] [--repeats R] [--presets name,name,...] [--decode-sweep 1]
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "mlp_benchmark_timing.h"
#include "pipelines/mlp/mlp_device_problem.h"
#include "pipelines/mlp/mlp_reference.h"
#include "pipelines/mlp/mlp_tensor_gemv.h"
#include "pipelines/mlp/mlp_traffic.h"

using namespace fusescope;
using namespace fusescope::mlp;

namespace {

struct Preset {
    std::string name;
    MlpShape shape;
    MlpDtype dtype;
};

const std::vector<Preset>& presets() {
    static const std::vector<Preset> all = {
        {"classroom", {512, 1024, 2816}, MlpDtype::Bfloat16},
        {"classroom", {512, 1024, 2816}, MlpDtype::Float32},
        // float32 storage, TF32 tensor-core products: what Triton's tl.dot does by default.
        {"classroom", {512, 1024, 2816}, MlpDtype::Tf32},
        {"decode_m1", {1, 4096, 14336}, MlpDtype::Bfloat16},
        {"decode_m4", {4, 4096, 14336}, MlpDtype::Bfloat16},
        {"decode_m8", {8, 4096, 14336}, MlpDtype::Bfloat16},
        {"decode_m16", {16, 4096, 14336}, MlpDtype::Bfloat16},
        {"prefill_m512", {512, 4096, 14336}, MlpDtype::Bfloat16},
        {"prefill_m4096", {4096, 4096, 14336}, MlpDtype::Bfloat16},
    };
    return all;
}

struct Options {
    std::string json;
    int repeats = 20;
    std::string only;  // comma-separated preset names; empty: all
    bool decodeSweep = false;
};

bool parse(int argc, char** argv, Options& o) {
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string key = argv[i];
        if (key == "--json")
            o.json = argv[i + 1];
        else if (key == "--repeats")
            o.repeats = std::max(20, std::atoi(argv[i + 1]));
        else if (key == "--decode-sweep")
            o.decodeSweep = std::string(argv[i + 1]) == "1";
        else if (key == "--presets")
            o.only = std::string(",").append(argv[i + 1]).append(",");
        else
            return false;
    }
    return argc % 2 == 1;
}

struct Row {
    Preset preset;
    MlpVariant variant;
    bench::Timing timing;
    std::uint64_t compulsoryBytes, modelBytes;
    double usefulFlops, relativeError, vsUnfused;
    std::size_t nanElements;
    std::vector<KernelTraffic> kernels;
};

// Each input read once and the output written once: the floor any variant moves.
std::uint64_t compulsoryBytes(const MlpShape& s, MlpDtype dtype) {
    return static_cast<std::uint64_t>(2 * s.M * s.H + 3 * s.I * s.H) * elementBytes(dtype);
}

std::string jsonOf(const std::vector<Row>& rows, double copyGBs, double gemmTflops) {
    std::ostringstream j;
    j << "{\n  \"copy_roof_GBs\": " << copyGBs << ",\n  \"bf16_gemm_roof_TFLOPs\": " << gemmTflops
      << ",\n  \"results\": [\n";
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const Row& r = rows[i];
        const double us = r.timing.medianUs;
        j << "    {\"preset\": \"" << r.preset.name << "\", \"dtype\": \""
          << dtypeName(r.preset.dtype) << "\", \"M\": " << r.preset.shape.M
          << ", \"H\": " << r.preset.shape.H << ", \"I\": " << r.preset.shape.I
          << ", \"variant\": \"" << variantName(r.variant) << "\", \"us_median\": " << us
          << ", \"us_min\": " << r.timing.minUs << ", \"repeats\": " << r.timing.repeats
          << ", \"compulsory_bytes\": " << r.compulsoryBytes
          << ", \"model_bytes\": " << r.modelBytes << ", \"useful_flops\": " << r.usefulFlops
          << ", \"GBs\": " << double(r.compulsoryBytes) / (us * 1e3)
          << ", \"model_GBs\": " << double(r.modelBytes) / (us * 1e3)
          << ", \"TFLOPs\": " << r.usefulFlops / (us * 1e6) << ", \"vs_unfused\": " << r.vsUnfused
          << ", \"relative_error\": " << r.relativeError << ", \"nan_elements\": " << r.nanElements
          << ", \"kernels\": [";
        for (std::size_t k = 0; k < r.kernels.size(); ++k)
            j << (k ? ", " : "") << "{\"name\": \"" << r.kernels[k].name
              << "\", \"bytes_read\": " << r.kernels[k].bytesRead()
              << ", \"bytes_written\": " << r.kernels[k].bytesWritten()
              << ", \"flops\": " << r.kernels[k].flops << "}";
        j << "]}" << (i + 1 < rows.size() ? "," : "") << "\n";
    }
    j << "  ]\n}\n";
    return j.str();
}

void printRow(const Row& r) {
    const double us = r.timing.medianUs;
    std::printf(
        "%-14s %-8s %-15s %11.1f %8.0f %9.0f %8.1f %7.2fx %9.2e %s\n", r.preset.name.c_str(),
        std::string(dtypeName(r.preset.dtype)).c_str(), std::string(variantName(r.variant)).c_str(),
        us, double(r.compulsoryBytes) / (us * 1e3), double(r.modelBytes) / (us * 1e3),
        r.usefulFlops / (us * 1e6), r.vsUnfused, r.relativeError,
        r.nanElements == 0 && r.relativeError <= toleranceFor(r.preset.dtype) ? "ok" : "WRONG");
    std::fflush(stdout);
}

Status benchPreset(MlpCudaContext& context, const Preset& p, int repeats, std::vector<Row>& rows) {
    const MlpHostInputs inputs = makeRandomInputs(p.shape, p.dtype, 2024, 0);
    const std::vector<std::int64_t> checked = referenceRows(p.shape.M, 8);
    const std::vector<double> reference = referenceOutput(p.shape, inputs, checked, 0);
    auto problem = MlpDeviceProblem::create(p.shape, p.dtype, inputs);
    if (!problem) return problem.status();
    double unfusedUs = 0;
    for (MlpVariant variant : kAllVariants) {
        // A variant without code for this dtype (production in tf32) says why and is skipped.
        if (Status s = checkCudaProblem(variant, p.shape, p.dtype, kLessonDefaultTiles); !s) {
            std::printf("%-14s %-8s %-15s refused: %s\n", p.name.c_str(),
                        std::string(dtypeName(p.dtype)).c_str(),
                        std::string(variantName(variant)).c_str(), s.message().c_str());
            continue;
        }
        const auto enqueue = [&] {
            return runMlpCuda(context, variant, p.shape, p.dtype, (*problem)->buffers());
        };
        if (Status s = (*problem)->poisonOutput(context); !s) return s;
        if (Status s = enqueue(); !s) return s;
        HostMatrix out(p.dtype, p.shape.M, p.shape.H);
        if (Status s = (*problem)->download(context, out); !s) return s;
        const Comparison c = compareRows(out, checked, reference);
        // A variant slower than 50 ms a run (the lesson kernel at prefill) gets 5 repeats.
        auto probe = bench::timeMedian(context, 0, 1, enqueue);
        if (!probe) return probe.status();
        auto timing = bench::timeMedian(context, 2, probe->medianUs > 5e4 ? 5 : repeats, enqueue);
        if (!timing) return timing.status();
        if (variant == MlpVariant::Unfused) unfusedUs = timing->medianUs;
        auto kernels = mlpTraffic(variant, p.shape, p.dtype);
        rows.push_back({p, variant, *timing, compulsoryBytes(p.shape, p.dtype), totalBytes(kernels),
                        usefulFlops(p.shape), c.relativeError, unfusedUs / timing->medianUs,
                        c.nanElements, std::move(kernels)});
        printRow(rows.back());
    }
    return Status::ok();
}

// The decode pair (gate_up GEMV with SiLU*up, then down GEMV) at Llama-3-8B sizes under each
// launch choice, checked and timed like the variants; one line per choice.
Status sweepDecode(MlpCudaContext& context, int repeats) {
    std::vector<DecodeConfig> configs;
    for (bool tensorCores : {false, true})
        for (bool overlap : {false, true}) configs.push_back({tensorCores, overlap});
    auto* stream = static_cast<cudaStream_t>(context.stream());
    for (std::int64_t M : {1, 2, 4, 8, 16}) {
        const MlpShape shape{M, 4096, 14336};
        const MlpDtype dtype = MlpDtype::Bfloat16;
        const MlpHostInputs inputs = makeRandomInputs(shape, dtype, 77, 0);
        const std::vector<std::int64_t> checked = referenceRows(M, 8);
        const std::vector<double> reference = referenceOutput(shape, inputs, checked, 0);
        auto problem = MlpDeviceProblem::create(shape, dtype, inputs);
        if (!problem) return problem.status();
        const MlpDeviceBuffers b = (*problem)->buffers();
        const auto* up = static_cast<const char*>(b.gateUp) + shape.I * shape.H * 2;
        for (const DecodeConfig& config : configs) {
            if (!config.tensorCores && M > 2) continue;
            const auto enqueue = [&] {
                if (Status s = launchDecodeGateUpSilu(dtype, shape, config, b.x, b.gateUp, up,
                                                      b.scratch, stream);
                    !s)
                    return s;
                return launchDecodeDown(dtype, shape, config, b.scratch, b.down, b.out, stream);
            };
            if (Status s = (*problem)->poisonOutput(context); !s) return s;
            if (Status s = enqueue(); !s) return s;
            HostMatrix out(dtype, M, shape.H);
            if (Status s = (*problem)->download(context, out); !s) return s;
            const Comparison c = compareRows(out, checked, reference);
            auto timing = bench::timeMedian(context, 3, repeats, enqueue);
            if (!timing) return timing.status();
            std::printf(
                "decode_sweep M=%-2lld %-6s overlap=%d %8.1f us (min %.1f) %6.0f GB/s "
                "rel.err %.2e %s\n",
                static_cast<long long>(M), config.tensorCores ? "tensor" : "cuda",
                config.overlap ? 1 : 0, timing->medianUs, timing->minUs,
                double(compulsoryBytes(shape, dtype)) / (timing->medianUs * 1e3), c.relativeError,
                c.nanElements == 0 && c.relativeError <= toleranceFor(dtype) ? "ok" : "WRONG");
            std::fflush(stdout);
        }
    }
    return Status::ok();
}

}  // namespace

int main(int argc, char** argv) {
    Options options;
    if (!parse(argc, argv, options)) {
        std::fprintf(stderr,
                     "usage: mlp_benchmark [--json FILE] [--repeats R] [--presets a,b] "
                     "[--decode-sweep 1]\n");
        return 2;
    }
    auto context = MlpCudaContext::create();
    if (!context) {
        std::fprintf(stderr, "no GPU to benchmark on: %s\n", context.status().message().c_str());
        return 1;
    }
    auto copy = bench::copyRoofGBs(**context, std::size_t{1} << 30, options.repeats);
    auto gemm = bench::gemmRoofTflops(**context, 8192, options.repeats);
    if (!copy || !gemm) {
        std::fprintf(stderr, "roof measurement failed: %s\n",
                     (!copy ? copy.status() : gemm.status()).message().c_str());
        return 1;
    }
    std::printf("copy roof (1 GiB D2D, read+write): %.0f GB/s; bf16 GEMM 8192^3: %.0f TFLOP/s\n",
                *copy, *gemm);
    std::printf("%-14s %-8s %-15s %11s %8s %9s %8s %8s %9s\n", "preset", "dtype", "variant",
                "us(median)", "GB/s", "modelGB/s", "TFLOP/s", "vs unf", "rel.err");
    std::vector<Row> rows;
    for (const Preset& p : presets()) {
        if (!options.only.empty() &&
            options.only.find(std::string(",").append(p.name).append(",")) == std::string::npos)
            continue;
        if (Status s = benchPreset(**context, p, options.repeats, rows); !s) {
            std::fprintf(stderr, "%s (%s) failed: %s\n", p.name.c_str(),
                         std::string(dtypeName(p.dtype)).c_str(), s.message().c_str());
            return 1;
        }
    }
    if (!options.json.empty()) std::ofstream(options.json) << jsonOf(rows, *copy, *gemm);
    if (options.decodeSweep) {
        if (Status s = sweepDecode(**context, options.repeats); !s) {
            std::fprintf(stderr, "decode sweep failed: %s\n", s.message().c_str());
            return 1;
        }
    }
    return 0;
}

#include "measure/gap.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/byte_text.h"
#include "measure/counted_launches.h"
#include "measure/timeline.h"
#include "pipelines/registry.h"

namespace fusescope {
namespace {

// The size of one of the variant's arrays, where all of its arrays are the output's size (the
// elementwise pipelines); the output's size otherwise.
std::uint64_t arrayBytesOf(const VariantResult& variant) {
    const PipelineSpec* pipeline = findPipeline(variant.pipeline);
    const VariantSpec* spec = pipeline ? findVariant(*pipeline, variant.variant) : nullptr;
    if (!spec) return 0;
    for (const BufferSpec& buffer : spec->buffers)
        if (buffer.role == BufferRole::Output) return buffer.bytes(variant.problem);
    return 0;
}

std::string ratio(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2fx", value);
    return text;
}

bool exceeds(std::optional<double> percent) {
    return percent && std::abs(*percent) > kGapThresholdPercent;
}

void addOnce(std::vector<GapFinding>& findings, const GapFinding& finding) {
    const bool seen = std::any_of(findings.begin(), findings.end(),
                                  [&](const GapFinding& f) { return f.reason == finding.reason; });
    if (!seen) findings.push_back(finding);
}

constexpr double kSectorBytes = 32.0;
// A free that many ns before a kernel can still be writing back when it runs.
constexpr std::int64_t kFreeWriteBackWindowNs = 50'000'000;

// What the registry's plan says kernel k reads: each touched buffer's bytes once, and which
// buffers it charges more often (the MLP's tiles).
void describeReads(const VariantResult& variant, std::size_t k, KernelEvidence& evidence) {
    const PipelineSpec* pipeline = findPipeline(variant.pipeline);
    const VariantSpec* spec = pipeline ? findVariant(*pipeline, variant.variant) : nullptr;
    if (!spec) return;
    const std::vector<KernelSpec> kernels = spec->kernelsFor(variant.problem);
    if (k >= kernels.size()) return;
    std::uint64_t largest = 0;
    for (const BufferTraffic& traffic : kernels[k].traffic.buffers) {
        const BufferSpec* buffer = findBuffer(*spec, traffic.buffer);
        if (!buffer) continue;
        const double bytes = static_cast<double>(buffer->bytes(variant.problem));
        largest = std::max(largest, buffer->bytes(variant.problem));
        const double read = static_cast<double>(traffic.bytesRead);
        evidence.compulsoryBytesRead += std::min(read, bytes);
        if (bytes > 0 && read > bytes * (1.0 + kGapThresholdPercent / 100.0)) {
            char factor[32];
            std::snprintf(factor, sizeof factor, " %.0fx", read / bytes);
            evidence.reReadBuffers +=
                (evidence.reReadBuffers.empty() ? "" : ", ") + traffic.buffer + factor;
        }
    }
    if (!pipeline->countsPasses) {
        evidence.arrayBytes = largest;
        evidence.arraysAreOneSize = false;
    }
}

// Where counting the launch several times moved its DRAM bytes past what a comparison with
// Nsight Compute allows: the range, in words, with how little its L2 requests moved beside it.
std::optional<GapFinding> launchSpreadFinding(const KernelCounters& measured) {
    if (!measured.countedLaunches) return std::nullopt;
    const bool readsMoved =
        measured.dramReadSpread &&
        spreadExceedsTolerance(*measured.dramReadSpread, measured.dramBytesRead);
    const bool writesMoved =
        measured.dramWrittenSpread &&
        spreadExceedsTolerance(*measured.dramWrittenSpread, measured.dramBytesWritten);
    if (!readsMoved && !writesMoved) return std::nullopt;
    const auto range = [](const char* what, const CountSpread& spread, double median) {
        // One digit more than the tables: a range shown is at least 3% or 1 MB wide.
        return std::string(what) + " ranged from " + bytesText(spread.low, 4) + " to " +
               bytesText(spread.high, 4) + " (median " + bytesText(median, 4) + ")";
    };
    std::string words = "Counted " + std::to_string(*measured.countedLaunches) +
                        " times, each from a clean L2, the same launch's DRAM ";
    if (readsMoved) words += range("reads", *measured.dramReadSpread, measured.dramBytesRead);
    if (readsMoved && writesMoved) words += " and its DRAM ";
    if (writesMoved)
        words += range("writes", *measured.dramWrittenSpread, measured.dramBytesWritten);
    if (measured.l2SectorsReadSpread && measured.l2SectorsRead && *measured.l2SectorsRead > 0) {
        char moved[32];
        std::snprintf(moved, sizeof moved, "%.1f%%",
                      (measured.l2SectorsReadSpread->high - measured.l2SectorsReadSpread->low) /
                          *measured.l2SectorsRead * 100.0);
        words += std::string(", while the reads it requested from the L2 moved by ") + moved;
    }
    // Measured on the H200: the lesson kernel at prefill-512 read 1.26 GB in each of nine
    // launches under ncu's default base clocks, 3.7-8.9 GB with ncu --clock-control none.
    words +=
        ". The work is the same; which re-reads the L2 catches is not, so one launch's count "
        "(Nsight Compute's too) is one draw from this range. The clocks move it as well: "
        "Nsight Compute locks them to base by default, which changes how closely the blocks "
        "keep pace and can put its count far outside this range; FuseScope counts at the "
        "clocks the GPU runs at, as ncu --clock-control none does.";
    return GapFinding{GapReason::VariesByLaunch, words};
}

// Whether the model's bytes lie within what the counted launches moved, reads and writes each
// at their lowest or highest.
bool modelWithinLaunchSpread(const KernelCounters& measured, double modelBytes) {
    if (!measured.dramReadSpread || !measured.dramWrittenSpread) return false;
    const double low = measured.dramReadSpread->low + measured.dramWrittenSpread->low;
    const double high = measured.dramReadSpread->high + measured.dramWrittenSpread->high;
    return low <= modelBytes && modelBytes <= high;
}

}  // namespace

std::optional<double> gapPercent(double modelBytes, double measuredBytes) {
    if (modelBytes <= 0.0) return std::nullopt;
    return (measuredBytes - modelBytes) / modelBytes * 100.0;
}

std::vector<GapFinding> explainKernelGap(const KernelEvidence& e) {
    std::vector<GapFinding> findings;
    const double model = e.modelBytesRead + e.modelBytesWritten;
    const double measured = e.measured.dramBytesRead + e.measured.dramBytesWritten;
    if (!exceeds(gapPercent(model, measured))) return findings;
    const double threshold = kGapThresholdPercent / 100.0;

    // Less than the model: re-reads served by the L2, the data stayed in the L2, or the writes
    // came later.
    const double reReads = e.modelBytesRead - e.compulsoryBytesRead;
    if (!e.reReadBuffers.empty() && reReads > threshold * e.modelBytesRead &&
        e.measured.dramBytesRead < e.modelBytesRead - 0.5 * reReads)
        findings.push_back({GapReason::ReReadsFromL2,
                            "The model charges every request, re-reads included (" +
                                e.reReadBuffers + "): " + bytesText(e.modelBytesRead) +
                                " requested, of which " + bytesText(e.compulsoryBytesRead) +
                                " are distinct bytes. The L2 serves most re-reads, so DRAM reads " +
                                bytesText(e.measured.dramBytesRead) +
                                "; the requests still cost L2 bandwidth and time. How many "
                                "re-reads the L2 catches depends on which tiles run at the same "
                                "time, so these DRAM reads can change from run to run and between "
                                "profilers, while the requests stay the same."});
    if (measured < model && e.l2CacheBytes > 0 && e.arrayBytes > 0 && e.arrayBytes < e.l2CacheBytes)
        findings.push_back(
            {GapReason::FitsInL2,
             (e.arraysAreOneSize ? "Each array is " : "Its largest buffer is ") +
                 bytesText(static_cast<double>(e.arrayBytes)) + ", smaller than the " +
                 bytesText(static_cast<double>(e.l2CacheBytes)) +
                 " L2 cache: what one kernel writes is still in the L2 when it ends and when "
                 "the next reads it, so that traffic never reaches DRAM. (The counters start "
                 "each kernel from a cleared L2, as Nsight Compute does: its reads show, its "
                 "writes mostly do not; the bandwidth chart shows kernels back to back.)"});

    const double writeDeficit = e.modelBytesWritten - e.measured.dramBytesWritten;
    if (e.modelBytesWritten > 0 && writeDeficit > threshold * e.modelBytesWritten) {
        const double nextSurplus =
            e.nextMeasured ? e.nextMeasured->dramBytesWritten - e.nextModelBytesWritten : 0.0;
        const double later = std::max(nextSurplus, e.writesAfterEnd.value_or(0.0));
        if (later >= 0.5 * writeDeficit)
            findings.push_back(
                {GapReason::DeferredWrites, bytesText(writeDeficit) +
                                                " of this kernel's writes reached DRAM after it "
                                                "ended (written back from the L2 later): they show "
                                                "up in the next kernel's counters or after it."});
        else if (e.l2CacheBytes > 0 && writeDeficit <= static_cast<double>(e.l2CacheBytes))
            // Each kernel is counted alone, from a cleared L2 to its end: what it wrote last can
            // still sit dirty in the L2 then, and is written back after the counted range.
            findings.push_back(
                {GapReason::DeferredWrites,
                 bytesText(writeDeficit) + " of this kernel's writes were still in the " +
                     bytesText(static_cast<double>(e.l2CacheBytes)) +
                     " L2 when it ended; they reach DRAM after the counted range, which stops at "
                     "the kernel's end (as Nsight Compute's does), so no kernel's counters show "
                     "them."});
    }

    // More than the model: someone else's writes landed during this kernel, or the access
    // pattern fetches more than it uses.
    const double writeSurplus = e.measured.dramBytesWritten - e.modelBytesWritten;
    if (writeSurplus > threshold * std::max(e.modelBytesWritten, 1.0)) {
        const double previousDeficit =
            e.previousMeasured ? e.previousModelBytesWritten - e.previousMeasured->dramBytesWritten
                               : 0.0;
        if (previousDeficit >= 0.5 * writeSurplus)
            findings.push_back(
                {GapReason::DeferredWrites,
                 bytesText(writeSurplus) +
                     " of extra writes here are the previous kernel's, written back from the "
                     "L2 after it ended."});
        if (e.bytesFreedJustBefore > 0)
            findings.push_back(
                {GapReason::FreeWriteBack,
                 bytesText(static_cast<double>(e.bytesFreedJustBefore)) +
                     " were freed just before this kernel; the GPU writes freed memory back in "
                     "the background, and those writes are counted here."});
    }
    // More reads than the model, where the model charges each operand once: a tiled kernel (a
    // library GEMM) asks the L2 for its tiles many times over, and operands larger than the L2
    // come back from DRAM for some of those re-reads. Said with the measured requests.
    const double l2Requested = e.measured.l2SectorsRead.value_or(0.0) * kSectorBytes;
    const double readSurplus = e.measured.dramBytesRead - e.modelBytesRead;
    if (e.reReadBuffers.empty() && readSurplus > threshold * e.modelBytesRead &&
        l2Requested > 2.0 * e.modelBytesRead && e.measured.dramBytesRead <= l2Requested) {
        char factors[96];
        std::snprintf(factors, sizeof factors, "%.1fx", l2Requested / e.modelBytesRead);
        findings.push_back(
            {GapReason::ReReadsPastL2,
             "The kernel asks the L2 for " + bytesText(l2Requested) + ", " + factors + " the " +
                 bytesText(e.modelBytesRead) + " it reads once: it re-reads its tiles, and the L2" +
                 (e.l2CacheBytes > 0 ? " (" + bytesText(static_cast<double>(e.l2CacheBytes)) + ")"
                                     : std::string()) +
                 " cannot keep them all between uses, so DRAM reads " +
                 bytesText(e.measured.dramBytesRead) +
                 ". The model counts each operand once, as the data a perfect cache would move."});
    }
    const double sectorsRead = e.measured.sectorsRead.value_or(0.0) * kSectorBytes;
    const double sectorsWritten = e.measured.sectorsWritten.value_or(0.0) * kSectorBytes;
    const double readRatio = e.modelBytesRead > 0 ? sectorsRead / e.modelBytesRead : 0.0;
    const double writeRatio = e.modelBytesWritten > 0 ? sectorsWritten / e.modelBytesWritten : 0.0;
    if (readRatio > 1.0 + threshold || writeRatio > 1.0 + threshold)
        findings.push_back(
            {GapReason::Uncoalesced,
             "Accesses are not coalesced: loads touch " + ratio(readRatio) + " and stores " +
                 ratio(writeRatio) +
                 " the 32-byte sectors the data needs, so DRAM moves more than the model."});
    const std::optional<GapFinding> spread = launchSpreadFinding(e.measured);
    const bool spreadExplains = spread && modelWithinLaunchSpread(e.measured, model);
    if (spread) findings.push_back(*spread);
    if (findings.size() == (spread ? 1u : 0u) && !spreadExplains)
        findings.push_back({GapReason::Unexplained,
                            "The measured bytes differ from the model by more than 10% and none "
                            "of the known causes (L2, deferred writes, frees, coalescing) fits."});
    return findings;
}

double writesAfterFreesOutsideKernels(const VariantResult& variant) {
    const std::vector<TimelineSpan> kernels =
        spansOfKind(variant.timeline, TimelineSpan::Kind::Kernel);
    const std::vector<TimelineSpan> allocations =
        spansOfKind(variant.timeline, TimelineSpan::Kind::Allocation);
    if (allocations.empty()) return 0.0;
    std::int64_t firstFree = allocations.front().endNs;
    for (const TimelineSpan& allocation : allocations)
        firstFree = std::min(firstFree, allocation.endNs);
    double written = 0.0;
    for (const BandwidthSample& sample : variant.samples) {
        if (sample.startNs < firstFree) continue;
        const bool underKernel =
            std::any_of(kernels.begin(), kernels.end(), [&](const TimelineSpan& k) {
                return sample.startNs < k.endNs && sample.endNs > k.startNs;
            });
        if (!underKernel) written += sample.dramBytesWritten();
    }
    return written;
}

std::optional<VariantGap> explainVariantGap(const VariantResult& variant,
                                            std::uint64_t l2CacheBytes) {
    const bool measured = !variant.kernels.empty() &&
                          std::all_of(variant.kernels.begin(), variant.kernels.end(),
                                      [](const KernelResult& k) { return k.counters.has_value(); });
    if (!measured) return std::nullopt;
    VariantGap gap;
    gap.variant = variant.variant;
    const std::vector<TimelineSpan> spans =
        spansOfKind(variant.timeline, TimelineSpan::Kind::Kernel);
    const std::vector<TimelineSpan> allocations =
        spansOfKind(variant.timeline, TimelineSpan::Kind::Allocation);
    const std::size_t count = variant.kernels.size();
    for (std::size_t k = 0; k < count; ++k) {
        const KernelResult& kernel = variant.kernels[k];
        KernelEvidence evidence;
        evidence.name = kernel.name;
        evidence.modelBytesRead = static_cast<double>(kernel.modelBytesRead);
        evidence.modelBytesWritten = static_cast<double>(kernel.modelBytesWritten);
        evidence.measured = *kernel.counters;
        evidence.arrayBytes = arrayBytesOf(variant);
        describeReads(variant, k, evidence);
        evidence.l2CacheBytes = l2CacheBytes;
        if (k > 0) {
            evidence.previousMeasured = variant.kernels[k - 1].counters;
            evidence.previousModelBytesWritten =
                static_cast<double>(variant.kernels[k - 1].modelBytesWritten);
        }
        if (k + 1 < count) {
            evidence.nextMeasured = variant.kernels[k + 1].counters;
            evidence.nextModelBytesWritten =
                static_cast<double>(variant.kernels[k + 1].modelBytesWritten);
        }
        // The sampling run's first launch of this kernel (spans repeat the kernel order).
        if (spans.size() >= count && spans.size() % count == 0) {
            const TimelineSpan& span = spans[k];
            const std::int64_t until =
                k + 1 < spans.size() ? spans[k + 1].startNs : span.endNs + 1'000'000;
            evidence.writesAfterEnd =
                integrateSamples(variant.samples, span.endNs, until).bytesWritten;
            for (const TimelineSpan& allocation : allocations)
                if (allocation.endNs <= span.startNs &&
                    span.startNs - allocation.endNs < kFreeWriteBackWindowNs)
                    evidence.bytesFreedJustBefore += allocation.bytes;
        }
        KernelGap kernelGap;
        kernelGap.name = kernel.name;
        kernelGap.modelBytes = evidence.modelBytesRead + evidence.modelBytesWritten;
        kernelGap.measuredBytes =
            evidence.measured.dramBytesRead + evidence.measured.dramBytesWritten;
        kernelGap.percent = gapPercent(kernelGap.modelBytes, kernelGap.measuredBytes);
        kernelGap.findings = explainKernelGap(evidence);
        gap.modelBytes += kernelGap.modelBytes;
        gap.measuredBytes += kernelGap.measuredBytes;
        gap.kernels.push_back(std::move(kernelGap));
    }
    gap.percent = gapPercent(gap.modelBytes, gap.measuredBytes);
    const double modelWrites = static_cast<double>(variant.modelBytesWritten);
    if (const double freeWrites = writesAfterFreesOutsideKernels(variant);
        modelWrites > 0 && freeWrites > kGapThresholdPercent / 100.0 * modelWrites)
        addOnce(gap.findings,
                {GapReason::FreeWriteBack,
                 bytesText(freeWrites) +
                     " were written to DRAM after buffers were freed, with no kernel "
                     "running: the GPU writes freed memory back in the background. The "
                     "kernels' counters do not include it; the bandwidth chart shows it."});
    if (exceeds(gap.percent))
        for (const KernelGap& kernelGap : gap.kernels)
            for (const GapFinding& finding : kernelGap.findings) addOnce(gap.findings, finding);
    return gap;
}

std::vector<VariantGap> explainGaps(const RunReport& report) {
    std::vector<VariantGap> gaps;
    for (const VariantResult& variant : report.variants)
        if (std::optional<VariantGap> gap = explainVariantGap(variant, report.device.l2CacheBytes))
            gaps.push_back(std::move(*gap));
    return gaps;
}

}  // namespace fusescope

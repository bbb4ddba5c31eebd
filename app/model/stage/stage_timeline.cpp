#include "model/stage/stage_timeline.h"

#include <QMap>

#include <algorithm>
#include <cmath>
#include <string>

#include "model/run_passes.h"
#include "pipelines/registry.h"

namespace fusescope::model {
namespace {

StageArrayRole toStageRole(BufferRole role) {
    switch (role) {
        case BufferRole::Input:
            return StageArrayRole::Input;
        case BufferRole::Output:
            return StageArrayRole::Output;
        case BufferRole::Scratch:
            return StageArrayRole::Scratch;
    }
    return StageArrayRole::Input;
}

qint64 msToNs(double ms) {
    return static_cast<qint64>(std::llround(ms * 1e6));
}

// Kernel durations in ns, in launch order: the recorded per-kernel medians, matched by name.
Result<QVector<qint64>> kernelDurations(const VariantResult& run,
                                        const std::vector<KernelSpec>& kernels) {
    QVector<qint64> durations;
    for (std::size_t k = 0; k < kernels.size(); ++k) {
        const KernelResult* found = nullptr;
        for (const KernelResult& record : run.kernels)
            if (record.name == kernels[k].name) found = &record;
        if (!found && k < static_cast<std::size_t>(run.kernels.size())) found = &run.kernels[k];
        if (!found)
            return Status(ErrorCode::InvalidArgument,
                          "run " + run.variant + " has no time for kernel " + kernels[k].name);
        durations.push_back(std::max<qint64>(1, msToNs(found->timeMs)));
    }
    return durations;
}

// The recorded kernel of a registry kernel: by name, else by position; -1 where none.
qsizetype recordedKernelIndex(const VariantResult& run, const QString& name, std::size_t position) {
    for (std::size_t k = 0; k < run.kernels.size(); ++k)
        if (run.kernels[k].name == name.toStdString()) return static_cast<qsizetype>(k);
    return position < run.kernels.size() ? static_cast<qsizetype>(position) : -1;
}

// Lower case without underscores: the registry's "swiglu_scratch" is the CUDA kernel
// swigluScratch, which CUPTI may report mangled ("_Z13swigluScratchPKfS0_PfS1_m").
QString normalizedKernelName(const QString& name) {
    QString normalized = name.toLower();
    normalized.remove(QLatin1Char('_'));
    return normalized;
}

// The first stretch of the device timeline whose kernel spans carry the variant's kernels in
// order (a span matches when its normalized name contains the kernel's).
QVector<const TimelineSpan*> matchDeviceKernels(const VariantResult& run,
                                                const std::vector<KernelSpec>& kernels) {
    QVector<const TimelineSpan*> kernelSpans;
    for (const TimelineSpan& span : run.timeline)
        if (span.kind == TimelineSpan::Kind::Kernel) kernelSpans.push_back(&span);
    std::sort(kernelSpans.begin(), kernelSpans.end(),
              [](const TimelineSpan* a, const TimelineSpan* b) { return a->startNs < b->startNs; });
    // A sampling run repeats the kernels: take the repetition with the median span, so that
    // neither a cold first launch nor an outlier sets the stage's times.
    const qsizetype count = static_cast<qsizetype>(kernels.size());
    QVector<qsizetype> starts;
    for (qsizetype first = 0; first + count <= kernelSpans.size();) {
        bool matches = true;
        for (qsizetype k = 0; k < count && matches; ++k)
            matches = normalizedKernelName(QString::fromStdString(kernelSpans[first + k]->name))
                          .contains(normalizedKernelName(
                              QString::fromStdString(kernels[static_cast<std::size_t>(k)].name)));
        if (matches) {
            starts.push_back(first);
            first += count;
        } else {
            ++first;
        }
    }
    if (starts.isEmpty()) return {};
    auto spanOf = [&](qsizetype first) {
        return kernelSpans[first + count - 1]->endNs - kernelSpans[first]->startNs;
    };
    std::stable_sort(starts.begin(), starts.end(),
                     [&](qsizetype a, qsizetype b) { return spanOf(a) < spanOf(b); });
    return kernelSpans.mid(starts[starts.size() / 2], count);
}

// Splits a kernel's accesses into the loops it runs one after another: an array the kernel both
// writes and reads is written by one loop and read back by the next (the lab's two-loop scratch
// kernel). Returns, per loop, the reads and writes in registry order.
struct KernelLoop {
    std::vector<std::string> reads;
    std::vector<std::string> writes;
};

std::vector<KernelLoop> splitIntoPassLoops(const KernelSpec& kernel);

// A kernel's accesses, loop by loop, with their bytes: whole-array passes where the pipeline
// counts them (split into loops as above), else one loop reading, then writing, each buffer's
// modelled bytes (re-reads included: a sweep may cover a buffer several times).
struct StageLoop {
    std::vector<std::pair<QString, quint64>> readBytes;
    std::vector<std::pair<QString, quint64>> writeBytes;
};

std::vector<StageLoop> loopsOf(const KernelSpec& kernel, const QMap<QString, quint64>& bytesOf) {
    std::vector<StageLoop> loops;
    if (!kernel.passReads.empty() || !kernel.passWrites.empty()) {
        for (const KernelLoop& loop : splitIntoPassLoops(kernel)) {
            StageLoop stage;
            for (const auto& name : loop.reads) {
                const QString buffer = QString::fromStdString(name);
                stage.readBytes.emplace_back(buffer, bytesOf.value(buffer));
            }
            for (const auto& name : loop.writes) {
                const QString buffer = QString::fromStdString(name);
                stage.writeBytes.emplace_back(buffer, bytesOf.value(buffer));
            }
            loops.push_back(std::move(stage));
        }
        return loops;
    }
    StageLoop stage;
    for (const BufferTraffic& traffic : kernel.traffic.buffers) {
        const QString buffer = QString::fromStdString(traffic.buffer);
        if (traffic.bytesRead > 0) stage.readBytes.emplace_back(buffer, traffic.bytesRead);
        if (traffic.bytesWritten > 0) stage.writeBytes.emplace_back(buffer, traffic.bytesWritten);
    }
    loops.push_back(std::move(stage));
    return loops;
}

std::vector<KernelLoop> splitIntoPassLoops(const KernelSpec& kernel) {
    std::vector<KernelLoop> loops(1);
    std::size_t writeCursor = 0;
    for (const std::string& read : kernel.passReads) {
        const auto written = std::find(kernel.passWrites.begin() + static_cast<long>(writeCursor),
                                       kernel.passWrites.end(), read);
        if (written != kernel.passWrites.end()) {
            // The loop before this read ends with the write that produces it.
            const auto last = static_cast<std::size_t>(written - kernel.passWrites.begin());
            for (; writeCursor <= last; ++writeCursor)
                loops.back().writes.push_back(kernel.passWrites[writeCursor]);
            loops.emplace_back();
        }
        loops.back().reads.push_back(read);
    }
    for (; writeCursor < kernel.passWrites.size(); ++writeCursor)
        loops.back().writes.push_back(kernel.passWrites[writeCursor]);
    return loops;
}

void placePhases(StageTimeline& timeline, qint64 phaseNs) {
    const qint64 shift = phaseNs - timeline.kernelsStartNs;
    for (StageKernel& kernel : timeline.kernels) kernel.startNs += shift, kernel.endNs += shift;
    for (StageSweep& sweep : timeline.sweeps) sweep.startNs += shift, sweep.endNs += shift;
    timeline.kernelsStartNs += shift;
    timeline.kernelsEndNs += shift;
    timeline.endNs = timeline.kernelsEndNs + phaseNs;

    // In the phases, buffers appear in declaration order (as the runner allocates them) and
    // vanish in reverse order, spread over the phase's first four fifths so each is seen.
    const qsizetype count = timeline.arrays.size();
    for (qsizetype i = 0; i < count; ++i) {
        StageArray& array = timeline.arrays[i];
        if (array.allocatedInPhase)
            array.allocatedAtNs = phaseNs * 4 * i / (5 * std::max<qsizetype>(count, 1));
        else
            array.allocatedAtNs += shift;
        if (array.freedInPhase)
            array.freedAtNs = timeline.kernelsEndNs +
                              phaseNs * 4 * (count - i) / (5 * std::max<qsizetype>(count, 1));
        else
            array.freedAtNs += shift;
    }
}

qint64 phaseFor(qint64 kernelSpanNs, const StageTimelineOptions& options) {
    return std::max<qint64>(1, static_cast<qint64>(kernelSpanNs * options.phaseFraction));
}

}  // namespace

int StageTimeline::arrayIndex(const QString& name) const {
    for (qsizetype i = 0; i < arrays.size(); ++i)
        if (arrays[i].name == name) return static_cast<int>(i);
    return -1;
}

qint64 StageTimeline::toRunClockNs(qint64 stageNs) const {
    const qint64 clamped = std::clamp(stageNs, kernelsStartNs, kernelsEndNs);
    return clamped - kernelsStartNs + runClockKernelsStartNs;
}

qint64 StageTimeline::fromRunClockNs(qint64 runNs) const {
    return std::clamp(runNs - runClockKernelsStartNs + kernelsStartNs, qint64{0}, endNs);
}

int StageTimeline::nextKernelAfter(qint64 stageNs) const {
    for (qsizetype k = 0; k < kernels.size(); ++k)
        if (kernels[k].startNs > stageNs) return static_cast<int>(k);
    return -1;
}

int StageTimeline::previousKernelBefore(qint64 stageNs) const {
    for (qsizetype k = kernels.size() - 1; k >= 0; --k)
        if (kernels[k].startNs < stageNs) return static_cast<int>(k);
    return -1;
}

Result<StageTimeline> buildStageTimeline(const VariantResult& run,
                                         const StageTimelineOptions& options) {
    const PipelineSpec* pipeline = findPipeline(run.pipeline);
    if (!pipeline)
        return Status(ErrorCode::InvalidArgument,
                      "unknown pipeline \"" + run.pipeline + "\" in the recording");
    const VariantSpec* variant = findVariant(*pipeline, run.variant);
    if (!variant)
        return Status(ErrorCode::InvalidArgument,
                      "unknown variant \"" + run.variant + "\" of pipeline " + pipeline->name);
    if (Status s = checkProblem(*pipeline, run.problem); !s)
        return Status(ErrorCode::InvalidArgument, "the recorded problem: " + s.message());
    const std::vector<KernelSpec> kernels = variant->kernelsFor(run.problem);

    StageTimeline timeline;
    timeline.pipeline = toQString(run.pipeline);
    timeline.variant = toQString(run.variant);
    timeline.variantTitle = QString::fromStdString(variant->title);
    timeline.fused = variant->fused;
    timeline.intermediate = QString::fromStdString(pipeline->intermediate);
    timeline.measuredTimeMs = run.timeMs;
    timeline.timingSource = dataSourceFrom(run.timingSource);
    timeline.passesCounted = pipeline->countsPasses;
    for (const KernelSpec& spec : kernels) {
        timeline.modelBytesRead += spec.traffic.bytesRead();
        timeline.modelBytesWritten += spec.traffic.bytesWritten();
        timeline.modelPasses += spec.passes();
    }
    // A hand-made record without its passes keeps the declared count.
    const int runPasses = shownPasses(run).value_or(0);
    timeline.passes = runPasses > 0 ? runPasses : timeline.modelPasses;

    QMap<QString, quint64> bufferBytes;
    for (const BufferSpec& buffer : variant->buffers) {
        StageArray array;
        array.name = QString::fromStdString(buffer.name);
        array.bytes = buffer.bytes(run.problem);
        bufferBytes.insert(array.name, array.bytes);
        array.role = toStageRole(buffer.role);
        array.isIntermediate = buffer.name == pipeline->intermediate;
        timeline.arrays.push_back(array);
    }

    const RunTraffic runDram = runTraffic(run);
    timeline.dramSource = runDram.dramSource;
    timeline.dramBytes = runDram.dramBytes;

    // Kernel times relative to the first kernel's start (the allocation phase is added last).
    const QVector<const TimelineSpan*> deviceKernels = matchDeviceKernels(run, kernels);
    Result<QVector<qint64>> durations = kernelDurations(run, kernels);
    if (deviceKernels.isEmpty() && !durations) return durations.status();
    timeline.timesFromDeviceTimeline = !deviceKernels.isEmpty();
    const qint64 origin = deviceKernels.isEmpty() ? 0 : deviceKernels.front()->startNs;
    timeline.runClockKernelsStartNs = origin;
    qint64 cursor = 0;
    for (std::size_t k = 0; k < kernels.size(); ++k) {
        const KernelSpec& spec = kernels[k];
        StageKernel kernel;
        kernel.name = QString::fromStdString(spec.name);
        if (!deviceKernels.isEmpty()) {
            const TimelineSpan* span = deviceKernels[static_cast<qsizetype>(k)];
            kernel.startNs = span->startNs - origin;
            kernel.endNs = std::max(span->endNs - origin, kernel.startNs + 1);
        } else {
            // Laid out back to back: the medians carry no launch gap, so none is invented.
            kernel.startNs = cursor;
            kernel.endNs = cursor + (*durations)[static_cast<qsizetype>(k)];
        }
        cursor = kernel.endNs;
        kernel.bytesRead = spec.traffic.bytesRead();
        kernel.bytesWritten = spec.traffic.bytesWritten();
        const qsizetype recorded = recordedKernelIndex(run, kernel.name, k);
        if (recorded >= 0 && recorded < runDram.kernels.size()) {
            kernel.dramRead = runDram.kernels[recorded].read;
            kernel.dramWritten = runDram.kernels[recorded].written;
        }
        // A fused kernel holds the intermediate on chip when no buffer of it is written.
        bool writesIntermediate = false;
        for (const BufferTraffic& traffic : spec.traffic.buffers) {
            const BufferSpec* buffer = findBuffer(*variant, traffic.buffer);
            writesIntermediate = writesIntermediate || (traffic.bytesWritten > 0 && buffer &&
                                                        buffer->role == BufferRole::Scratch);
        }
        kernel.holdsIntermediateInRegisters = variant->fused && !writesIntermediate;

        // Each loop gets a share of the kernel's time proportional to the bytes it moves.
        const std::vector<StageLoop> loops = loopsOf(spec, bufferBytes);
        const quint64 kernelBytes = std::max<quint64>(1, kernel.bytesRead + kernel.bytesWritten);
        qint64 loopStart = kernel.startNs;
        quint64 bytesBefore = 0;
        for (const StageLoop& loop : loops) {
            quint64 loopBytes = 0;
            for (const auto& [name, bytes] : loop.readBytes) loopBytes += bytes;
            for (const auto& [name, bytes] : loop.writeBytes) loopBytes += bytes;
            bytesBefore += loopBytes;
            const qint64 loopEnd =
                kernel.startNs + static_cast<qint64>(double(kernel.endNs - kernel.startNs) *
                                                     double(bytesBefore) / double(kernelBytes));
            auto addSweeps = [&](const std::vector<std::pair<QString, quint64>>& accesses,
                                 bool write) {
                for (const auto& [name, bytes] : accesses) {
                    StageSweep sweep;
                    sweep.kernel = static_cast<int>(k);
                    sweep.array = timeline.arrayIndex(name);
                    sweep.write = write;
                    sweep.startNs = loopStart;
                    sweep.endNs = std::max(loopEnd, loopStart + 1);
                    sweep.bytes = bytes;
                    if (sweep.array >= 0) timeline.sweeps.push_back(sweep);
                }
            };
            addSweeps(loop.readBytes, false);
            addSweeps(loop.writeBytes, true);
            loopStart = loopEnd;
        }
        timeline.kernels.push_back(kernel);
    }
    timeline.kernelsStartNs = 0;
    timeline.kernelsEndNs = timeline.kernels.empty() ? 0 : timeline.kernels.back().endNs;

    // Allocations or frees the device timeline saw between the kernels keep their times.
    for (const TimelineSpan& span : run.timeline) {
        if (span.kind != TimelineSpan::Kind::Allocation || deviceKernels.isEmpty()) continue;
        const int index = timeline.arrayIndex(QString::fromStdString(span.name));
        if (index < 0) continue;
        StageArray& array = timeline.arrays[index];
        const qint64 start = span.startNs - origin;
        const qint64 end = span.endNs - origin;
        if (start > 0 && start < timeline.kernelsEndNs)
            array.allocatedAtNs = start, array.allocatedInPhase = false;
        if (end > 0 && end < timeline.kernelsEndNs)
            array.freedAtNs = end, array.freedInPhase = false;
    }

    placePhases(timeline, phaseFor(timeline.kernelSpanNs(), options));

    quint64 computedPeak = 0;
    for (const StageArray& array : timeline.arrays) {
        quint64 inFlight = 0;
        for (const StageArray& other : timeline.arrays)
            if (other.existsAt(array.allocatedAtNs)) inFlight += other.bytes;
        computedPeak = std::max(computedPeak, inFlight);
    }
    timeline.peakBytesInFlight = run.peakBytesInFlight > 0 ? run.peakBytesInFlight : computedPeak;
    return timeline;
}

StageRunPair defaultStageRunPair(const Recording& recording) {
    StageRunPair pair;
    if (recording.runs.empty()) return pair;
    const std::string& pipelineName = recording.runs.front().pipeline;
    const PipelineSpec* pipeline = findPipeline(pipelineName);
    auto isFused = [&](const VariantResult& run) {
        const VariantSpec* variant = pipeline ? findVariant(*pipeline, run.variant) : nullptr;
        return variant && variant->fused;
    };
    for (int i = 0; i < runCount(recording); ++i) {
        const VariantResult& run = recording.runs[i];
        if (run.pipeline != pipelineName) continue;
        if (!isFused(run) && pair.left < 0) pair.left = i;
        if (isFused(run) && pair.right < 0) pair.right = i;
    }
    // Two unfused or two fused runs: show the first two side by side.
    if (pair.left < 0) std::swap(pair.left, pair.right);
    if (pair.right < 0)
        for (int i = 0; i < runCount(recording); ++i)
            if (i != pair.left && recording.runs[i].pipeline == pipelineName) {
                pair.right = i;
                break;
            }
    return pair;
}

void alignStageTimelines(StageTimeline& left, StageTimeline& right,
                         const StageTimelineOptions& options) {
    const qint64 phase = phaseFor(std::max(left.kernelSpanNs(), right.kernelSpanNs()), options);
    placePhases(left, phase);
    placePhases(right, phase);
}

}  // namespace fusescope::model

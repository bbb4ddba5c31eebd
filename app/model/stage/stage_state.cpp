#include "model/stage/stage_state.h"

#include <algorithm>

namespace fusescope::model {

void computeStageState(const StageTimeline& timeline, qint64 timeNs, StageState& state) {
    state.timeNs = timeNs;
    state.arrays.resize(timeline.arrays.size());
    for (StageArrayState& array : state.arrays) array = StageArrayState{};
    if (timeNs < timeline.kernelsStartNs)
        state.phase = StagePhase::Allocating;
    else if (timeNs < timeline.kernelsEndNs)
        state.phase = StagePhase::Running;
    else if (timeNs < timeline.endNs)
        state.phase = StagePhase::Freeing;
    else
        state.phase = StagePhase::Finished;

    state.kernel = -1;
    state.kernelFraction = 0.0;
    state.intermediateInRegisters = false;
    state.dramBytes = 0.0;
    for (qsizetype k = 0; k < timeline.kernels.size(); ++k) {
        const StageKernel& kernel = timeline.kernels[k];
        // DRAM bytes are known per kernel, not per loop: spread evenly over its time.
        if (timeNs >= kernel.endNs)
            state.dramBytes += kernel.dramBytes();
        else if (timeNs > kernel.startNs)
            state.dramBytes += kernel.dramBytes() * double(timeNs - kernel.startNs) /
                               double(kernel.endNs - kernel.startNs);
        if (timeNs >= kernel.startNs && timeNs < kernel.endNs) {
            state.kernel = static_cast<int>(k);
            state.kernelFraction =
                double(timeNs - kernel.startNs) / double(kernel.endNs - kernel.startNs);
            state.intermediateInRegisters = kernel.holdsIntermediateInRegisters;
        }
    }

    // Inputs hold their values from the upload on; outputs and scratch fill as they are written.
    for (qsizetype a = 0; a < timeline.arrays.size(); ++a)
        if (timeline.arrays[a].role == StageArrayRole::Input) state.arrays[a].validFraction = 1.0;

    state.passesCompleted = 0;
    state.passesProgress = 0.0;
    state.bytesRead = 0.0;
    state.bytesWritten = 0.0;
    for (const StageSweep& sweep : timeline.sweeps) {
        StageArrayState& array = state.arrays[sweep.array];
        double fraction = 0.0;
        if (timeNs >= sweep.endNs) {
            fraction = 1.0;
            ++state.passesCompleted;
            ++(sweep.write ? array.writePasses : array.readPasses);
        } else if (timeNs >= sweep.startNs) {
            fraction = double(timeNs - sweep.startNs) / double(sweep.endNs - sweep.startNs);
            array.activeFraction = fraction;
            array.activeIsWrite = sweep.write;
        }
        if (sweep.write) array.validFraction = std::max(array.validFraction, fraction);
        const quint64 arrayBytes = timeline.arrays[sweep.array].bytes;
        if (!sweep.write && arrayBytes > 0)
            array.timesRead += fraction * double(sweep.bytes) / double(arrayBytes);
        state.passesProgress += fraction;
        (sweep.write ? state.bytesWritten : state.bytesRead) += fraction * double(sweep.bytes);
    }
    // The sweeps are the declared passes; where the run counted others (its counters), the
    // counter reaches the run's passes as the sweeps reach their end.
    if (timeline.modelPasses > 0 && timeline.passes != timeline.modelPasses) {
        state.passesCompleted = state.passesCompleted * timeline.passes / timeline.modelPasses;
        state.passesProgress = state.passesProgress * timeline.passes / timeline.modelPasses;
    }

    state.bytesInFlight = 0;
    for (qsizetype a = 0; a < timeline.arrays.size(); ++a) {
        const StageArray& array = timeline.arrays[a];
        state.arrays[a].allocated = array.existsAt(timeNs);
        if (state.arrays[a].allocated) state.bytesInFlight += array.bytes;
        if (!state.arrays[a].allocated) state.arrays[a].validFraction = 0.0;
    }
    // The peak so far: the largest in-flight total at any allocation up to now.
    state.peakSoFar = state.bytesInFlight;
    for (const StageArray& candidate : timeline.arrays) {
        if (candidate.allocatedAtNs > timeNs) continue;
        quint64 inFlight = 0;
        for (const StageArray& other : timeline.arrays)
            if (other.existsAt(candidate.allocatedAtNs)) inFlight += other.bytes;
        state.peakSoFar = std::max(state.peakSoFar, inFlight);
    }
}

}  // namespace fusescope::model

#pragma once
// What the stage shows at one instant of a StageTimeline. Computed into a caller-owned value
// whose vectors keep their capacity, so a 60 Hz animation allocates nothing per frame.
#include <QVector>

#include "model/stage/stage_timeline.h"

namespace fusescope::model {

enum class StagePhase { Allocating, Running, Freeing, Finished };

struct StageArrayState {
    bool allocated = false;
    int readPasses = 0;   // completed read sweeps
    int writePasses = 0;  // completed write sweeps
    // The sweep under way: how far it has got (0..1), or -1 when the array is idle.
    double activeFraction = -1.0;
    bool activeIsWrite = false;
    // Fraction of the array holding values written in this run (outputs and scratch start empty).
    double validFraction = 0.0;
    // Bytes read from the array so far over its size: a tiled kernel that re-reads a weight for
    // every output tile reads it many times (the stage tints its tiles by this).
    double timesRead = 0.0;
    int passes() const { return readPasses + writePasses; }
};

struct StageState {
    qint64 timeNs = 0;
    StagePhase phase = StagePhase::Allocating;
    int kernel = -1;                       // running kernel, or -1
    double kernelFraction = 0.0;           // how far the running kernel has got
    bool intermediateInRegisters = false;  // a fused kernel is holding it in registers now
    QVector<StageArrayState> arrays;
    int passesCompleted = 0;
    double passesProgress = 0.0;  // passes including the fractions under way
    double bytesRead = 0.0;       // requested, by the traffic model
    double bytesWritten = 0.0;
    double dramBytes = 0.0;  // read and written in DRAM so far (StageTimeline::dramSource)
    quint64 bytesInFlight = 0;
    quint64 peakSoFar = 0;
    double bytesMoved() const { return bytesRead + bytesWritten; }  // requested
    // Requested so far beyond what reached DRAM: served by the L1 and L2.
    double servedOnChip() const {
        return bytesMoved() > dramBytes ? bytesMoved() - dramBytes : 0.0;
    }
};

void computeStageState(const StageTimeline& timeline, qint64 timeNs, StageState& state);

}  // namespace fusescope::model

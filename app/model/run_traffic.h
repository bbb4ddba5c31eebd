#pragma once
// Three numbers of a run that every view keeps apart and labels:
// - requested bytes: what the kernels ask of memory by the traffic model, every re-read of a tile
//   charged (the L1 and L2 serve most re-reads, so these are not bytes that crossed to DRAM);
// - DRAM bytes: measured by the counters where the run has them, else the model's distinct bytes
//   (each buffer at most once per kernel), said "model";
// - useful FLOPs: the math of the pipeline's reference variant, beside the FLOPs the kernels
//   execute (a fusion that recomputes values executes more).
// Rates against the copy roofline are made of DRAM bytes only.
#include <QString>
#include <QVector>

#include "model/recording.h"

namespace fusescope::model {

enum class DramSource {
    Measured,  // the DRAM counters of every kernel of the run
    Model,     // the model's distinct bytes: nothing measured
    Unknown    // neither: the registry does not know the run's pipeline, variant or problem
};

// "measured", "model", "requested (L1/L2 serve re-reads)": the word beside a DRAM figure, or
// what the requested bytes say where no DRAM figure exists.
QString dramSourceWord(DramSource source);
inline constexpr char kRequestedOnlyWords[] = "requested (L1/L2 serve re-reads)";

struct KernelDram {
    double read = 0.0;
    double written = 0.0;
    DramSource source = DramSource::Unknown;
    double total() const { return read + written; }
};

struct RunTraffic {
    double timeMs = 0.0;
    double requestedBytes = 0.0;
    double dramBytes = 0.0;  // 0 where the source is Unknown
    DramSource dramSource = DramSource::Unknown;
    // Per recorded kernel, in the run's order.
    QVector<KernelDram> kernels;
    double executedFlops = 0.0;
    // The reference variant's FLOPs for this problem; the executed ones where the registry
    // cannot say (a pipeline it lacks, a hand-made run without a problem).
    double usefulFlops = 0.0;
    bool usefulFlopsFromRegistry = false;

    bool hasDram() const { return dramSource != DramSource::Unknown; }
    double requestedGBps() const { return timeMs > 0 ? requestedBytes / (timeMs * 1e6) : 0.0; }
    double dramGBps() const { return timeMs > 0 ? dramBytes / (timeMs * 1e6) : 0.0; }
    double usefulTflops() const { return timeMs > 0 ? usefulFlops / (timeMs * 1e9) : 0.0; }
    double executedTflops() const { return timeMs > 0 ? executedFlops / (timeMs * 1e9) : 0.0; }
    // Requests beyond the DRAM bytes: served by the L1 and L2 (0 where DRAM is unknown or more).
    double servedOnChipBytes() const {
        return hasDram() && requestedBytes > dramBytes ? requestedBytes - dramBytes : 0.0;
    }
    // Executed FLOPs over useful ones; 1 where either is unknown.
    double flopsRatio() const {
        return usefulFlops > 0 && executedFlops > 0 ? executedFlops / usefulFlops : 1.0;
    }
    // More than a percent over the useful FLOPs: worth a second figure.
    bool executesExtraFlops() const { return flopsRatio() > 1.01; }
};

RunTraffic runTraffic(const VariantResult& run);

// The title of a table's rate column over these runs, naming the bytes its cells divide:
// "DRAM GB/s" where every DRAM figure was measured, "model GB/s" where none was (a CPU run),
// both words where the runs differ, and the requested bytes where no run has a DRAM figure.
QString rateColumnTitle(const QVector<RunTraffic>& runs);
// The % of copy roofline column's title, by the same rule (the roofline is DRAM bandwidth).
QString rooflineColumnTitle(const QVector<RunTraffic>& runs);

// The share of the copy roofline of a run's DRAM bytes per second; nothing where the run has no
// DRAM figure or the recording no roofline (requested bytes are never held against it).
std::optional<double> rooflineShare(const RunTraffic& traffic, const RooflineResult& roofline);

}  // namespace fusescope::model

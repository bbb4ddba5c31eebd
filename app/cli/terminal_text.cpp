#include "cli/terminal_text.h"

#include "model/format.h"

namespace fusescope::cli {
namespace {

void makeSafe(QString& text) {
    text = model::escapeForOneLine(text);
}

void makeSafe(std::string& text) {
    text = model::escapeForOneLine(QString::fromStdString(text)).toStdString();
}

}  // namespace

model::Recording withTerminalSafeText(model::Recording recording) {
    for (QString* text : {&recording.createdAt, &recording.producer, &recording.description})
        makeSafe(*text);
    for (std::string* text : {&recording.counterStatus, &recording.device.name,
                              &recording.device.driverVersion, &recording.device.runtimeVersion,
                              &recording.device.memoryName, &recording.device.processorsName})
        makeSafe(*text);
    if (recording.computeRoof) makeSafe(recording.computeRoof->description);
    for (model::VariantNotRun& variant : recording.variantsNotRun) {
        makeSafe(variant.variant);
        makeSafe(variant.reason);
    }
    for (model::VariantResult& run : recording.runs) {
        for (std::string* text : {&run.pipeline, &run.variant, &run.check.measure}) makeSafe(*text);
        for (fusescope::KernelResult& kernel : run.kernels) makeSafe(kernel.name);
        for (fusescope::AllocationEvent& allocation : run.allocations) makeSafe(allocation.buffer);
        for (fusescope::TimelineSpan& span : run.timeline) makeSafe(span.name);
    }
    return recording;
}

model::SweepFile withTerminalSafeText(model::SweepFile sweep) {
    for (QString* text : {&sweep.producer, &sweep.created, &sweep.description}) makeSafe(*text);
    makeSafe(sweep.report.pipeline);
    makeSafe(sweep.report.device.name);
    for (SweepSeries& series : sweep.report.series) {
        makeSafe(series.variant);
        makeSafe(series.title);
        makeSafe(series.fitError);
    }
    return sweep;
}

tiles::TileSweep withTerminalSafeText(tiles::TileSweep sweep) {
    for (std::string* text :
         {&sweep.producer, &sweep.created, &sweep.deviceName, &sweep.driverVersion,
          &sweep.runtimeVersion, &sweep.compilerVersion, &sweep.limits.name,
          &sweep.limits.copyBandwidthSource, &sweep.limits.computeSource})
        makeSafe(*text);
    if (sweep.peer) {
        makeSafe(sweep.peer->name);
        makeSafe(sweep.peer->source);
    }
    for (tiles::ReferenceTiming& reference : sweep.references) {
        makeSafe(reference.variant);
        makeSafe(reference.title);
    }
    for (tiles::TileCell& cell : sweep.cells) {
        if (cell.report.refusal) makeSafe(cell.report.refusal->reason);
        for (std::string* text : {&cell.error, &cell.peerNote, &cell.report.gridWords,
                                  &cell.report.predictedBound, &cell.report.launch.kernelName,
                                  &cell.report.compiled.origin, &cell.report.compiled.choice})
            makeSafe(*text);
        for (std::string& limiter : cell.limiters) makeSafe(limiter);
    }
    return sweep;
}

}  // namespace fusescope::cli

#include "worker/sweep_command.h"

namespace fusescope {

SweepRequest SweepCommand::request() const {
    SweepRequest request;
    request.pipeline = pipeline.toStdString();
    for (const QString& variant : variants) request.variants.push_back(variant.toStdString());
    request.from = from;
    request.to = to;
    request.stepsPerOctave = stepsPerOctave;
    request.vectorWidth = vectorWidth;
    request.repeats = repeats;
    request.warmup = warmup;
    return request;
}

}  // namespace fusescope

#pragma once
// A run's problem as people type it, for every front end (the CLI's options, the GUI's command
// line and settings): a preset, dimensions ("M=512,H=1024,I=2816"), a dtype ("bf16") and tuning
// values ("block_m=32,block_n=64"), applied in that order to the pipeline's default problem and
// checked against its declarations. The help texts come from the same declarations.
#include <QString>

#include "core/status.h"
#include "pipelines/registry.h"

namespace fusescope::model {

struct ProblemText {
    QString preset;      // empty: none
    QString dimensions;  // "M=512,H=1024" (counts follow the element-count rule: 2^k, 1,024)
    QString dtype;       // empty: the pipeline's default
    QString tuning;      // "block_m=32,vector=4", or every value in declaration order "32,64,64,64"
};

// A problem written the way problemFromText reads it back (dimensions and tuning as
// "name=value,..." in name order, dtype by name; no preset).
ProblemText problemText(const Problem& problem);

// The problem, or the reason in words ("H = 0 is outside 1 to 131,072").
Result<Problem> problemFromText(const PipelineSpec& pipeline, const ProblemText& text);
// One dimension or tuning value set on a problem, checked by name against the pipeline.
Status setDimension(const PipelineSpec& pipeline, Problem& problem, const QString& name,
                    const QString& value);
Status setTuning(const PipelineSpec& pipeline, Problem& problem, const QString& name,
                 const QString& value);

// What a pipeline takes, for help texts and `list`: its dimensions with defaults and limits,
// its dtypes, its tuning parameters and presets, one line each.
QStringList problemHelpLines(const PipelineSpec& pipeline);

}  // namespace fusescope::model

#pragma once
// The commands' help examples, made from the registry's declarations: the help names the
// pipelines and variants the program has, and no pipeline or variant is written into it.
#include <QString>

namespace fusescope::cli {

// "fusescope-cli run --pipeline P --variants A,B --n 67108864 \\\n      --repeat 20 ...": an
// elementwise pipeline's first and last variants at 64 Mi elements.
QString elementwiseRunExample();
// Two runs of a pipeline with presets: at its first preset on the GPU, and at its last preset's
// dimensions typed as --shape on the CPU.
QString presetRunExamples();
// "fusescope-cli sweep --pipeline P --variants A,B --from 4096 ...".
QString sweepExample();

}  // namespace fusescope::cli

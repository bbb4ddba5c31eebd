// Every shipped H200 recording explains each gap between the model and the counters: no kernel
// or run says that none of the known causes fits, which would teach a class that a measured
// byte is a mystery.
#include <gtest/gtest.h>

#include <QDir>

#include "model/measurement_gaps.h"
#include "model/recording_json.h"

using namespace fusescope::model;

namespace {

// The words the gap rules give a gap none of them explains.
const QString kUnexplained = QStringLiteral("none of the known causes");

QStringList unexplainedGaps(const QVector<RunGapView>& gaps) {
    QStringList found;
    for (const RunGapView& run : gaps) {
        for (const QString& reason : run.reasons)
            if (reason.contains(kUnexplained)) found << run.variant + QStringLiteral(": ") + reason;
        for (const KernelGapView& kernel : run.kernels)
            for (const QString& reason : kernel.reasons)
                if (reason.contains(kUnexplained))
                    found << run.variant + QLatin1Char('/') + kernel.kernel + QStringLiteral(": ") +
                                 reason;
    }
    return found;
}

}  // namespace

TEST(ShippedRecordings, EveryMeasuredGapHasAKnownCause) {
    const QDir shipped(QStringLiteral(FUSESCOPE_SHIPPED_DIR));
    int measured = 0;
    for (const QString& name :
         shipped.entryList({QStringLiteral("h200-*.fusescope.json")}, QDir::Files)) {
        const auto recording = loadRecording(shipped.filePath(name));
        if (!recording) continue;  // the size sweep is not a run recording
        const QVector<RunGapView> gaps = measurementGaps(*recording);
        if (gaps.isEmpty()) continue;
        ++measured;
        const QStringList found = unexplainedGaps(gaps);
        EXPECT_TRUE(found.isEmpty())
            << name.toStdString() << ": " << found.join(QLatin1Char('\n')).toStdString();
    }
    // The ten MLP, SwiGLU and affine recordings carry counters: all of them were read.
    EXPECT_GE(measured, 10);
}

// The words looked for are the ones the rules give: a kernel whose bytes are twice the model's,
// with no cause to name, says them.
TEST(ShippedRecordings, TheUnexplainedWordsAreTheRulesOwn) {
    Recording recording;
    VariantResult variant;
    variant.pipeline = "swiglu";
    variant.variant = "fused";
    KernelResult kernel;
    kernel.name = "swiglu_fused";
    kernel.modelBytesRead = 100'000'000;
    KernelCounters counters;
    counters.dramBytesRead = 200e6;
    counters.dramBytesWritten = 0;
    kernel.counters = counters;
    variant.kernels.push_back(kernel);
    recording.runs.push_back(variant);
    EXPECT_FALSE(unexplainedGaps(measurementGaps(recording)).isEmpty());
}

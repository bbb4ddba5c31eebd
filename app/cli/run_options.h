#pragma once
// Checks of the values fusescope-cli takes (pipeline, variants, N, backend, output path), each
// giving a one-line error that names the offending value. Shared by `run` and later commands.
#include <QString>
#include <QStringList>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"
#include "model/recording.h"
#include "pipelines/registry.h"
#include "runtime/backend_selection.h"
#include "runtime/runner.h"

namespace fusescope::cli {

Result<const PipelineSpec*> parsePipeline(const QString& name);
// "scratch,fused" or "all" (empty result: every variant). Duplicates are dropped.
Result<std::vector<std::string>> parseVariants(const PipelineSpec& pipeline, const QString& list);

// An element count for `option` ("--n", "--from") by the one rule (model/element_count.h); the
// errors name the option. Values past 64 bits are no error here: `tooLarge` is set so the
// caller can name the device's limit instead.
struct ElementCountOption {
    std::uint64_t value = 0;
    bool tooLarge = false;
};
Result<ElementCountOption> parseElementCountOption(const QString& option, const QString& text);

// A whole number in [lowest, highest] for `option` ("--repeat").
Result<int> parseBoundedInteger(const QString& option, const QString& text, int lowest,
                                int highest);
Result<BackendChoice> parseBackendChoice(const QString& text);
// --device N: which GPU of the host runs (0 to kMaxCudaDevice). Refused with the CPU backend,
// which has no GPU to choose. Unset: nothing (GPU 0, and auto may fall back to the CPU).
inline constexpr int kMaxCudaDevice = 1023;
QString cudaDeviceHelp();
Result<std::optional<int>> parseCudaDevice(bool given, const QString& text, BackendChoice backend);
// The backend for --backend (selectBackend) on the GPU of --device; a refusal names the option,
// and comes before anything runs.
// A finished run's report as fusescope-cli's recording; without one, prints why and sets
// `exitCode` (cancelled 130, else as exitCodeFor).
std::optional<model::Recording> recordingOfRun(const Result<RunReport>& report, int& exitCode);
Result<BackendSelection> startBackend(const Target& target, BackendSet& backends);
// --description: what a recording or sweep file shows, in words (one line).
QString descriptionHelp();
Result<QString> parseDescription(const QString& text);
// --vector: one of the registry's supported widths, one message for every other value.
Result<int> parseVectorWidth(const QString& text);
// The help line of --vector, naming the supported widths and the default.
QString vectorWidthHelp();

// Proves, before anything runs, that a save to `path` can succeed (model::saveTargetProblem),
// without opening it. `what` names the file in the message ("the recording").
Status checkWritable(const QString& path, const QString& what);

}  // namespace fusescope::cli

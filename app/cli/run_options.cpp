#include "cli/run_options.h"

#include <QRegularExpression>
#include <algorithm>

#include "cli/command.h"
#include "cli/console.h"
#include "model/atomic_save.h"
#include "model/element_count.h"

namespace fusescope::cli {
namespace {

Status usageError(const QString& message) {
    return Status(ErrorCode::InvalidArgument, message.toStdString());
}

QString knownPipelines() {
    QStringList names;
    for (const PipelineSpec& pipeline : pipelines()) names << QString::fromStdString(pipeline.name);
    return names.join(QStringLiteral(", "));
}

QString knownVariants(const PipelineSpec& pipeline) {
    QStringList names;
    for (const VariantSpec& variant : pipeline.variants)
        names << QString::fromStdString(variant.name);
    return names.join(QStringLiteral(", "));
}

}  // namespace

Result<const PipelineSpec*> parsePipeline(const QString& name) {
    if (name.isEmpty())
        return usageError(
            QStringLiteral("--pipeline is required (known: %1)").arg(knownPipelines()));
    const PipelineSpec* pipeline = findPipeline(name.toStdString());
    if (!pipeline)
        return usageError(
            QStringLiteral("unknown pipeline '%1' (known: %2)").arg(name, knownPipelines()));
    return pipeline;
}

Result<std::vector<std::string>> parseVariants(const PipelineSpec& pipeline, const QString& list) {
    std::vector<std::string> names;
    if (list.trimmed() == QLatin1String("all")) return names;
    for (const QString& part : list.split(QLatin1Char(','))) {
        const QString name = part.trimmed();
        if (name.isEmpty())
            return usageError(QStringLiteral("--variants '%1' has an empty name (use names "
                                             "separated by commas, or all)")
                                  .arg(list));
        if (!findVariant(pipeline, name.toStdString()))
            return usageError(
                QStringLiteral("unknown variant '%1' of pipeline '%2' (known: %3, "
                               "or all)")
                    .arg(name, QString::fromStdString(pipeline.name), knownVariants(pipeline)));
        if (std::find(names.begin(), names.end(), name.toStdString()) == names.end())
            names.push_back(name.toStdString());
    }
    return names;
}

Result<ElementCountOption> parseElementCountOption(const QString& option, const QString& text) {
    const model::ElementCount count = model::parseElementCount(text);
    switch (count.problem) {
        case model::ElementCount::Problem::None:
            return ElementCountOption{count.value, false};
        case model::ElementCount::Problem::PastSixtyFourBits:
            return ElementCountOption{0, true};
        case model::ElementCount::Problem::BelowOne:
            return usageError(
                QStringLiteral("%1 %2: N must be at least 1").arg(option, text.trimmed()));
        case model::ElementCount::Problem::NotAWholeNumber:
            break;
    }
    return usageError(
        QStringLiteral("%1 '%2' is not a whole number (for example 67108864, 67,108,864 or 2^26)")
            .arg(option, text));
}

Result<int> parseBoundedInteger(const QString& option, const QString& text, int lowest,
                                int highest) {
    static const QRegularExpression wholeNumber(QStringLiteral("^[+-]?[0-9]+$"));
    const QString outOfRange = QStringLiteral("%1 %2 is out of range: use %3 to %4")
                                   .arg(option, text.trimmed())
                                   .arg(lowest)
                                   .arg(highest);
    if (!wholeNumber.match(text.trimmed()).hasMatch())
        return usageError(QStringLiteral("%1 '%2' is not a whole number (use %3 to %4)")
                              .arg(option, text)
                              .arg(lowest)
                              .arg(highest));
    bool ok = false;
    const int value = text.trimmed().toInt(&ok);
    // Every character is a digit, so a failed conversion means the number is past int's range.
    if (!ok || value < lowest || value > highest) return usageError(outOfRange);
    return value;
}

Result<int> parseVectorWidth(const QString& text) {
    bool ok = false;
    const int width = text.trimmed().toInt(&ok);
    if (!ok || !isSupportedVectorWidth(width))
        return usageError(
            QStringLiteral("--vector %1: the vector width must be %2")
                .arg(text.trimmed(), QString::fromStdString(supportedVectorWidthsText())));
    return width;
}

Result<BackendChoice> parseBackendChoice(const QString& text) {
    // The command line takes the keys exactly as written.
    const std::optional<BackendChoice> choice = backendChoiceFromKey(text.toStdString());
    if (!choice || text != QLatin1String(backendChoiceKey(*choice)))
        return usageError(
            QStringLiteral("unknown backend '%1' (known: auto, cuda, cpu)").arg(text));
    return *choice;
}

QString cudaDeviceHelp() {
    return QStringLiteral(
               "The GPU to run on, by its CUDA number (0 to %1; default 0), for hosts "
               "with several GPUs; `fusescope-cli selftest` lists them.")
        .arg(kMaxCudaDevice);
}

Result<std::optional<int>> parseCudaDevice(bool given, const QString& text, BackendChoice backend) {
    if (!given) return std::optional<int>();
    Result<int> device = parseBoundedInteger(QStringLiteral("--device"), text, 0, kMaxCudaDevice);
    if (!device) return device.status();
    if (backend == BackendChoice::Cpu)
        return usageError(QStringLiteral("--device %1 chooses a GPU, but --backend is cpu (use "
                                         "--backend cuda or auto)")
                              .arg(*device));
    return std::optional<int>(*device);
}

std::optional<model::Recording> recordingOfRun(const Result<RunReport>& report, int& exitCode) {
    if (!report) {
        printError(QString::fromStdString(report.status().message()));
        exitCode = exitCodeFor(report.status());
        return std::nullopt;
    }
    return model::recordingMadeNowBy(*report, QStringLiteral("fusescope-cli"));
}

Result<BackendSelection> startBackend(const Target& target, BackendSet& backends) {
    Result<BackendSelection> selection = selectBackend(target, backends);
    if (!selection) {
        const std::string option = target.cudaDevice
                                       ? "--device " + std::to_string(*target.cudaDevice)
                                       : std::string("--backend cuda");
        return Status(selection.status().code(), option + ": " + selection.status().message());
    }
    return selection;
}

QString descriptionHelp() {
    return QStringLiteral(
        "What the file shows, in words (one line; the window's list of "
        "recordings shows it).");
}

Result<QString> parseDescription(const QString& text) {
    const QString line = text.simplified();
    if (line.isEmpty()) return usageError(QStringLiteral("--description needs some text"));
    return line;
}

QString vectorWidthHelp() {
    return QStringLiteral("Vector width: %1 (default %2; 4 means 16-byte loads).")
        .arg(QString::fromStdString(supportedVectorWidthsText()))
        .arg(kDefaultVectorWidth);
}

Status checkWritable(const QString& path, const QString& what) {
    if (path.isEmpty()) return usageError(QStringLiteral("--json needs a file name"));
    if (const QString problem = model::saveTargetProblem(path); !problem.isEmpty())
        return usageError(QStringLiteral("cannot write %1 to %2: %3").arg(what, path, problem));
    return Status::ok();
}

}  // namespace fusescope::cli

// `fusescope-cli list`: pipelines with their formulas, variants with titles and passes, the
// backends usable here (with the reason when CUDA is not), and the devices.
#include <QCommandLineParser>

#include "cli/command.h"
#include "cli/console.h"
#include "cli/shared_options.h"
#include "cli/text_table.h"
#include "model/format.h"
#include "model/problem_options.h"
#include "pipelines/registry.h"
#include "runtime/backend.h"

namespace fusescope::cli {
namespace {

using model::formatBytes;

QStringList pipelineLines() {
    QStringList lines{QStringLiteral("Pipelines")};
    for (const PipelineSpec& pipeline : pipelines()) {
        lines << QStringLiteral("  %1 · %2 · %3")
                     .arg(QString::fromStdString(pipeline.name),
                          QString::fromStdString(pipeline.title),
                          QString::fromStdString(pipeline.formula));
        for (const QString& line : model::problemHelpLines(pipeline))
            lines << QStringLiteral("    ") + line;
        const Problem problem = pipeline.defaultProblem();
        TextTable variants;
        variants.addColumns(
            {{QStringLiteral("variant"), TextTable::Align::Left},
             {QStringLiteral("kernels"), TextTable::Align::Right},
             {pipeline.countsPasses ? QStringLiteral("passes") : QStringLiteral("model bytes"),
              TextTable::Align::Right},
             {QStringLiteral("title"), TextTable::Align::Left}});
        for (const VariantSpec& variant : pipeline.variants) {
            const std::vector<KernelSpec> kernels = variant.kernelsFor(problem);
            std::size_t passes = 0;
            std::uint64_t bytes = 0;
            for (const KernelSpec& kernel : kernels) {
                passes += static_cast<std::size_t>(kernel.passes());
                bytes += kernel.traffic.bytesRead() + kernel.traffic.bytesWritten();
            }
            variants.addRow({QString::fromStdString(variant.name), QString::number(kernels.size()),
                             pipeline.countsPasses ? QString::number(passes) : formatBytes(bytes),
                             QString::fromStdString(variant.title)});
        }
        lines << variants.render(QStringLiteral("    "));
    }
    return lines;
}

QString describeDevice(const DeviceInfo& device) {
    QStringList parts{QString::fromStdString(device.name)};
    if (device.backend == BackendKind::Cuda) {
        parts << QStringLiteral("compute %1.%2")
                     .arg(device.computeCapabilityMajor)
                     .arg(device.computeCapabilityMinor)
              << QStringLiteral("%1 SMs").arg(device.multiprocessors)
              << QStringLiteral("%1 memory").arg(formatBytes(device.totalMemoryBytes))
              << QStringLiteral("%1 L2").arg(formatBytes(device.l2CacheBytes));
        if (device.theoreticalBandwidthGBps > 0)
            parts << QStringLiteral("%1 GB/s theoretical")
                         .arg(model::formatGBps(device.theoreticalBandwidthGBps));
        if (!device.driverVersion.empty())
            parts << QStringLiteral("driver %1").arg(QString::fromStdString(device.driverVersion));
    } else {
        parts << QStringLiteral("%1 threads").arg(device.multiprocessors)
              << QStringLiteral("%1 memory").arg(formatBytes(device.totalMemoryBytes));
        if (device.l2CacheBytes > 0)
            parts << QStringLiteral("%1 last-level cache").arg(formatBytes(device.l2CacheBytes));
        if (!device.runtimeVersion.empty())
            parts << QStringLiteral("%1 SIMD kernels")
                         .arg(QString::fromStdString(device.runtimeVersion));
    }
    return parts.join(QStringLiteral(" · "));
}

QStringList backendLines() {
    const BackendAvailability availability = probeBackends();
    QStringList lines{QStringLiteral("Backends")};
    const DeviceInfo cpu = createCpuBackend()->describe();
    lines << QStringLiteral("  cpu   usable · %1").arg(describeDevice(cpu));
    if (!availability.cudaUsable) {
        lines << QStringLiteral("  cuda  not usable: %1")
                     .arg(QString::fromStdString(availability.cudaReason));
        return lines;
    }
    Result<std::unique_ptr<Backend>> cuda = createCudaBackend();
    if (!cuda) {
        lines << QStringLiteral("  cuda  not usable: %1")
                     .arg(QString::fromStdString(cuda.status().message()));
        return lines;
    }
    lines << QStringLiteral("  cuda  usable · %1").arg(describeDevice((*cuda)->describe()));
    return lines;
}

}  // namespace

int listCommand(const QStringList& arguments) {
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Lists the pipelines and their variants, and the backends usable here."));
    if (std::optional<int> done = parseCommandLine(
            parser, {}, arguments,
            QStringLiteral("Usage: fusescope-cli list\n"
                           "Lists the pipelines with their formulas, the variants with "
                           "their kernels and passes,\nand the backends usable on this "
                           "machine with their devices.\n\n")))
        return *done;
    if (!parser.positionalArguments().isEmpty()) {
        printError(QStringLiteral("list takes no arguments, got '%1'")
                       .arg(parser.positionalArguments().join(QLatin1Char(' '))));
        return kExitUsageError;
    }
    QStringList lines = pipelineLines();
    lines << QString() << backendLines();
    printOut(lines.join(QLatin1Char('\n')));
    return kExitOk;
}

}  // namespace fusescope::cli

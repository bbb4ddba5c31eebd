// `fusescope-cli selftest`: a check before class. Probes the machine (the GPU stack, counters,
// CUPTI, NVRTC, a small run of every pipeline on every usable backend, the display, the shipped
// recordings) and prints one line per check with PASS, WARN, SKIP or FAIL and the fix in words.
#include <QCommandLineParser>

#include "cli/command.h"
#include "cli/console.h"
#include "cli/shared_options.h"
#include "selftest/check_list.h"
#include "selftest/machine_probe.h"

namespace fusescope::cli {
namespace {

QString selfTestHelp() {
    return QStringLiteral(
        "Usage: fusescope-cli selftest [--require-gpu] [--recordings DIR]\n"
        "A check before class: probes this machine and prints one line per check, PASS, WARN,\n"
        "SKIP or FAIL, with what to do about anything that is wrong:\n"
        "  the NVIDIA driver, the CUDA runtime FuseScope needs, access to the GPU, counter\n"
        "  permission, CUPTI, NVRTC (it compiles tiles at run time), a small run of every\n"
        "  pipeline on every usable backend with its correctness check, the display, the\n"
        "  shipped recordings.\n"
        "\n"
        "FAIL means a lesson cannot run as planned: the CPU backend fails, or the shipped\n"
        "recordings are missing or do not load, or a GPU item fails on a machine with an NVIDIA\n"
        "GPU (or with --require-gpu). On a machine without an NVIDIA GPU the GPU items are SKIP:\n"
        "the lesson runs on the CPU backend. Counters, CUPTI, NVRTC and the display are WARN at\n"
        "worst: the lesson goes on without them.\n"
        "\n"
        "Options:\n"
        "  --require-gpu       the GPU items must pass even where no NVIDIA GPU is seen\n"
        "  --recordings <DIR>  check the recordings in DIR instead of the shipped ones\n"
        "  -h, --help          this help\n"
        "\n"
        "Exit codes:\n"
        "  0  ready for class: no check failed (WARN and SKIP do not count)\n"
        "  1  not ready: at least one check failed (the FAIL lines say what to do)\n"
        "  2  usage error: an unknown option or value\n");
}

void printCheck(const selftest::Check& check) {
    printOut(QStringLiteral("  %1  %2: %3")
                 .arg(selftest::checkStatusText(check.status), check.name, check.found));
    if (!check.fix.isEmpty()) printOut(QStringLiteral("        fix: %1").arg(check.fix));
}

}  // namespace

int selfTestCommand(const QStringList& arguments) {
    QCommandLineParser parser;
    const QCommandLineOption help = helpOption();
    const QCommandLineOption requireGpu(QStringLiteral("require-gpu"),
                                        QStringLiteral("The GPU items must pass."));
    const QCommandLineOption recordings(QStringLiteral("recordings"),
                                        QStringLiteral("Check the recordings in this folder."),
                                        QStringLiteral("DIR"));
    parser.addOptions({help, requireGpu, recordings});
    if (std::optional<int> done = parseCommandLine(parser, help, arguments, selfTestHelp))
        return *done;
    if (!parser.positionalArguments().isEmpty()) {
        printError(QStringLiteral("selftest takes no file, got '%1'")
                       .arg(parser.positionalArguments().constFirst()));
        return kExitUsageError;
    }
    const QStringList folders = parser.isSet(recordings) ? QStringList{parser.value(recordings)}
                                                         : selftest::shippedRecordingFolders();

    printNote(QStringLiteral("checking this machine (a small run of every pipeline)..."));
    selftest::MachineProbe probe = selftest::probeMachine(folders);
    probe.display = selftest::probeDisplayFromEnvironment();
    const QVector<selftest::Check> checks =
        selftest::checkList(probe, {.requireGpu = parser.isSet(requireGpu)});

    printOut(QStringLiteral("FuseScope self-test"));
    for (const selftest::Check& check : checks) printCheck(check);
    printOut(selftest::checkSummary(checks));
    return selftest::machineReady(checks) ? kExitOk : kExitCheckFailed;
}

}  // namespace fusescope::cli

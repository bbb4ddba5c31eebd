#include "cli_process.h"

#include <QProcess>

#include "support/write_faults.h"

// The build tree's CLI, or FUSESCOPE_CLI where the tests run from a bundle on another machine.
QString cliPath() {
    const QString fromEnvironment = qEnvironmentVariable("FUSESCOPE_CLI");
    return fromEnvironment.isEmpty() ? QStringLiteral(FUSESCOPE_CLI_PATH) : fromEnvironment;
}

namespace {

CliResult runProcess(QProcess& process, const QStringList& arguments, int timeoutMs) {
    process.start(cliPath(), arguments);
    CliResult result;
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
        result.crashed = true;
    }
    result.crashed = result.crashed || process.exitStatus() != QProcess::NormalExit;
    result.exitCode = process.exitCode();
    result.out = QString::fromUtf8(process.readAllStandardOutput());
    result.err = QString::fromUtf8(process.readAllStandardError());
    return result;
}

}  // namespace

CliResult runCli(const QStringList& arguments, int timeoutMs) {
    QProcess process;
    return runProcess(process, arguments, timeoutMs);
}

CliResult runCliWithFileSizeLimit(const QStringList& arguments, long bytes) {
    QProcess process;
    process.setChildProcessModifier(
        [bytes] { testsupport::limitFileSizeInThisProcess(static_cast<rlim_t>(bytes)); });
    return runProcess(process, arguments, 120000);
}

AffineCpuRecording::AffineCpuRecording(const char* fileName, const char* n, const QStringList& more)
    : json(dir.filePath(QString::fromLatin1(fileName))) {
    if (!dir.isValid()) {
        run.err = QStringLiteral("no temporary folder: ") + dir.errorString();
        return;
    }
    run = runCli(QStringList{"run", "--pipeline", "affine", "--n", n, "--repeat", "2", "--backend",
                             "cpu", "--json", json} +
                 more);
}

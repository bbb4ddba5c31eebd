#include "cli_process.h"

#include <QProcess>

// The build tree's CLI, or FUSESCOPE_CLI where the tests run from a bundle on another machine.
QString cliPath() {
    const QString fromEnvironment = qEnvironmentVariable("FUSESCOPE_CLI");
    return fromEnvironment.isEmpty() ? QStringLiteral(FUSESCOPE_CLI_PATH) : fromEnvironment;
}

CliResult runCli(const QStringList& arguments, int timeoutMs) {
    QProcess process;
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

#include "cli_process.h"

#include <QProcess>

QString cliPath() {
    return QStringLiteral(FUSESCOPE_CLI_PATH);
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

// `fusescope-cli sweep` end to end on the CPU backend: the table, the sweep file, and a one-line
// error with exit code 2 for every kind of bad input.
#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

#include "support/folder_test.h"

namespace {

struct CliResult {
    int exitCode = -1;
    QString out;
    QString err;
};

// fusescope-cli with `arguments` after the command.
CliResult runCliCommand(const QString& command, const QStringList& arguments) {
    QProcess process;
    process.start(QStringLiteral(FUSESCOPE_CLI_PATH), QStringList{command} + arguments);
    CliResult result;
    if (!process.waitForFinished(120000)) return result;
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2;
    result.out = QString::fromUtf8(process.readAllStandardOutput());
    result.err = QString::fromUtf8(process.readAllStandardError());
    return result;
}

CliResult runCli(const QStringList& arguments) {
    return runCliCommand(QStringLiteral("sweep"), arguments);
}

QStringList smallSweep() {
    return {QStringLiteral("--pipeline"), QStringLiteral("swiglu"),
            QStringLiteral("--variants"), QStringLiteral("fused,scratch"),
            QStringLiteral("--from"),     QStringLiteral("4096"),
            QStringLiteral("--to"),       QStringLiteral("40000"),
            QStringLiteral("--repeat"),   QStringLiteral("3"),
            QStringLiteral("--warmup"),   QStringLiteral("1"),
            QStringLiteral("--backend"),  QStringLiteral("cpu")};
}

// Replaces the value of `option` in the small sweep (or appends the option).
QStringList smallSweepWith(const QString& option, const QString& value) {
    QStringList arguments = smallSweep();
    const qsizetype at = arguments.indexOf(option);
    if (at >= 0)
        arguments[at + 1] = value;
    else
        arguments << option << value;
    return arguments;
}

// Each test with its own temporary folder for the files it writes.
class SweepCli : public testsupport::FolderTest {};

}  // namespace

// `show` reads the file back and prints the table `sweep` printed, marked as replayed.
TEST_F(SweepCli, ShowPrintsTheTableOfASweepFile) {
    const QString path = dir_.filePath(QStringLiteral("sweep.json"));
    const CliResult swept = runCli(smallSweep() << QStringLiteral("--json") << path);
    ASSERT_EQ(swept.exitCode, 0) << swept.err.toStdString();
    const CliResult shown = runCliCommand(QStringLiteral("show"), {path});
    ASSERT_EQ(shown.exitCode, 0) << shown.err.toStdString();
    EXPECT_TRUE(shown.out.contains(QStringLiteral("data: CPU backend, replayed")))
        << shown.out.toStdString();
    EXPECT_TRUE(shown.err.contains(QStringLiteral("recorded by fusescope-cli")))
        << shown.err.toStdString();
    QString replayed = shown.out;
    replayed.replace(QStringLiteral(", replayed"), QString());
    EXPECT_EQ(replayed.toStdString(), swept.out.toStdString());
}

TEST_F(SweepCli, ShowRejectsABrokenSweepFileInOneLine) {
    const QString path = dir_.filePath(QStringLiteral("broken.json"));
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(R"({"format": "fusescope-sweep", "version": 1, "pipeline": "swiglu"})");
    file.close();
    const CliResult shown = runCliCommand(QStringLiteral("show"), {path});
    EXPECT_EQ(shown.exitCode, 2);
    EXPECT_TRUE(shown.err.contains(path)) << shown.err.toStdString();
    EXPECT_FALSE(shown.err.trimmed().contains(QLatin1Char('\n'))) << shown.err.toStdString();
}

TEST_F(SweepCli, CpuSweepPrintsTablesAndWritesTheDocument) {
    const QString path = dir_.filePath(QStringLiteral("sweep.json"));
    const CliResult result = runCli(smallSweep() << QStringLiteral("--json") << path);
    ASSERT_EQ(result.exitCode, 0) << result.err.toStdString();
    EXPECT_TRUE(result.out.contains(QStringLiteral("fused (1 launch, 12 bytes per element")))
        << result.out.toStdString();
    EXPECT_TRUE(result.out.contains(QStringLiteral("scratch (1 launch, 20 bytes per element")));
    EXPECT_TRUE(result.out.contains(QStringLiteral("data: CPU backend")));
    EXPECT_EQ(result.out.count(QStringLiteral("  fit: ")), 2);
    EXPECT_TRUE(result.out.contains(QStringLiteral("40,000")));

    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    QJsonParseError error;
    const QJsonObject document = QJsonDocument::fromJson(file.readAll(), &error).object();
    ASSERT_EQ(error.error, QJsonParseError::NoError) << error.errorString().toStdString();
    EXPECT_EQ(document.value(QStringLiteral("format")).toString(),
              QStringLiteral("fusescope-sweep"));
    EXPECT_EQ(document.value(QStringLiteral("version")).toInt(), 1);
    EXPECT_EQ(document.value(QStringLiteral("pipeline")).toString(), QStringLiteral("swiglu"));
    EXPECT_EQ(document.value(QStringLiteral("data_source")).toString(), QStringLiteral("cpu"));
    EXPECT_EQ(document.value(QStringLiteral("device")).toObject().value(QStringLiteral("backend")),
              QStringLiteral("cpu"));
    const QJsonArray sizes = document.value(QStringLiteral("sizes")).toArray();
    const QJsonArray expectedSizes{4096, 8192, 16384, 40000};
    EXPECT_EQ(sizes, expectedSizes);

    const QJsonArray series = document.value(QStringLiteral("series")).toArray();
    ASSERT_EQ(series.size(), 2);
    EXPECT_EQ(series[0].toObject().value(QStringLiteral("variant")).toString(),
              QStringLiteral("fused"));
    for (const QJsonValue& value : series) {
        const QJsonObject one = value.toObject();
        const double bytesPerElement = one.value(QStringLiteral("bytes_per_element")).toDouble();
        const QJsonArray points = one.value(QStringLiteral("points")).toArray();
        ASSERT_EQ(points.size(), sizes.size());
        double previousBytes = 0;
        for (qsizetype k = 0; k < points.size(); ++k) {
            const QJsonObject point = points[k].toObject();
            EXPECT_EQ(point.value(QStringLiteral("n")).toDouble(), sizes[k].toDouble());
            const double bytes = point.value(QStringLiteral("bytes")).toDouble();
            EXPECT_EQ(bytes, bytesPerElement * sizes[k].toDouble());
            EXPECT_GT(bytes, previousBytes);
            previousBytes = bytes;
            EXPECT_GT(point.value(QStringLiteral("time_ms")).toDouble(), 0.0);
            EXPECT_TRUE(point.value(QStringLiteral("check_ok")).toBool());
        }
        // Either a fit with a positive bandwidth, or the reason there is none.
        if (one.value(QStringLiteral("fit")).isObject())
            EXPECT_GT(one.value(QStringLiteral("fit"))
                          .toObject()
                          .value(QStringLiteral("bandwidth_gbps"))
                          .toDouble(),
                      0.0);
        else
            EXPECT_FALSE(one.value(QStringLiteral("fit_error")).toString().isEmpty());
    }
}

// The MLP's sweep varies M, and its weights do not grow with M: the table names M, gives the
// model's bytes at M = 1 rather than "bytes per element", and marks no size as one array in the L2
// (the elementwise sweep above does mark them).
TEST_F(SweepCli, AnMlpSweepSpeaksOfMAndMarksNoArrayInTheL2) {
    const CliResult result =
        runCli({QStringLiteral("--pipeline"), QStringLiteral("mlp"), QStringLiteral("--variants"),
                QStringLiteral("unfused"), QStringLiteral("--from"), QStringLiteral("1"),
                QStringLiteral("--to"), QStringLiteral("2"), QStringLiteral("--repeat"),
                QStringLiteral("1"), QStringLiteral("--warmup"), QStringLiteral("0"),
                QStringLiteral("--backend"), QStringLiteral("cpu")});
    ASSERT_EQ(result.exitCode, 0) << result.err.toStdString();
    EXPECT_TRUE(result.out.contains(QStringLiteral("at M = 1 by the model")))
        << result.out.toStdString();
    EXPECT_TRUE(result.out.contains(QStringLiteral("\n  M ")));
    EXPECT_FALSE(result.out.contains(QStringLiteral("bytes per element")));
    EXPECT_FALSE(result.out.contains(QStringLiteral("in L2"))) << result.out.toStdString();
    EXPECT_FALSE(result.out.contains(QStringLiteral("one array fits")));
    const CliResult elementwise = runCli(smallSweep());
    ASSERT_EQ(elementwise.exitCode, 0) << elementwise.err.toStdString();
    EXPECT_TRUE(elementwise.out.contains(QStringLiteral("one array fits")))
        << elementwise.out.toStdString();
}

TEST_F(SweepCli, HelpNamesEveryOption) {
    const CliResult result = runCli({QStringLiteral("--help")});
    EXPECT_EQ(result.exitCode, 0);
    for (const char* option : {"--pipeline", "--variants", "--from", "--to", "--steps-per-octave",
                               "--vector", "--backend", "--json", "--repeat"})
        EXPECT_TRUE(result.out.contains(QLatin1String(option))) << option;
}

struct BadInput {
    QString option;
    QString value;
    QString words;  // what the one-line error must say
};

// Test names then read "--to 2^70" instead of the struct's bytes.
void PrintTo(const BadInput& bad, std::ostream* stream) {
    *stream << bad.option.toStdString() << ' ' << bad.value.toStdString();
}

class SweepCliRejects : public testing::TestWithParam<BadInput> {};

TEST_P(SweepCliRejects, WithOneLineAndExitCode2) {
    const BadInput& bad = GetParam();
    const CliResult result = runCli(smallSweepWith(bad.option, bad.value));
    EXPECT_EQ(result.exitCode, 2) << result.err.toStdString();
    EXPECT_TRUE(result.out.isEmpty()) << result.out.toStdString();
    const QString error = result.err.trimmed();
    EXPECT_TRUE(error.startsWith(QStringLiteral("fusescope-cli: "))) << error.toStdString();
    EXPECT_FALSE(error.contains(QLatin1Char('\n'))) << error.toStdString();
    EXPECT_TRUE(error.contains(bad.words)) << error.toStdString();
}

INSTANTIATE_TEST_SUITE_P(
    BadInputs, SweepCliRejects,
    testing::Values(BadInput{"--pipeline", "nope", "unknown pipeline 'nope'"},
                    BadInput{"--variants", "fused,nope", "unknown variant 'nope'"},
                    BadInput{"--from", "0", "--from 0: N must be at least 1"},
                    BadInput{"--from", "abc", "--from 'abc' is not a whole number"},
                    BadInput{"--to", "1000", "--to 1000 is below --from 4096"},
                    BadInput{"--to", "2^70", "is too large: at most"},
                    BadInput{"--to", "2^44", "does not fit"},
                    BadInput{"--steps-per-octave", "0", "--steps-per-octave 0 is out of range"},
                    BadInput{"--vector", "3", "the vector width must be 1 or 4"},
                    BadInput{"--repeat", "zero", "--repeat 'zero' is not a whole number"},
                    BadInput{"--backend", "tpu", "unknown backend 'tpu'"},
                    BadInput{"--json", "/nonexistent-folder/sweep.json", "does not exist"}),
    [](const testing::TestParamInfo<BadInput>& param) {
        // "to_5": the option without dashes, then the case's index.
        QString name = param.param.option.mid(2) + QStringLiteral("_%1").arg(param.index);
        return name.replace(QLatin1Char('-'), QLatin1Char('_')).toStdString();
    });

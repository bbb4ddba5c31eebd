#include <gtest/gtest.h>

#include <QRegularExpression>

#include "cli_process.h"
#include "pipelines/registry.h"
#include "runtime/backend.h"

using namespace fusescope;

TEST(CliList, ShowsPipelinesVariantsBackendsAndDevice) {
    const CliResult result = runCli({"list"});
    ASSERT_FALSE(result.crashed);
    EXPECT_EQ(result.exitCode, 0) << result.err.toStdString();
    const std::string out = result.out.toStdString();
    for (const PipelineSpec& pipeline : pipelines()) {
        EXPECT_NE(out.find(pipeline.name), std::string::npos) << pipeline.name;
        EXPECT_NE(out.find(pipeline.formula), std::string::npos) << pipeline.formula;
        for (const VariantSpec& variant : pipeline.variants) {
            // The variant's row: name, kernels, passes and title on one line.
            const QString row =
                result.out.split('\n').filter(QString::fromStdString(variant.title)).value(0);
            EXPECT_TRUE(row.contains(QString::fromStdString(variant.name))) << variant.name;
            const QStringList cells = row.trimmed().split(QRegularExpression("\\s{2,}"));
            ASSERT_GE(cells.size(), 3) << row.toStdString();
            const std::vector<KernelSpec> kernels = variant.kernelsFor(pipeline.defaultProblem());
            EXPECT_EQ(cells[1].toULongLong(), kernels.size()) << row.toStdString();
            std::size_t passes = 0;
            for (const KernelSpec& kernel : kernels)
                passes += kernel.passReads.size() + kernel.passWrites.size();
            if (pipeline.countsPasses) {
                EXPECT_EQ(cells[2].toULongLong(), passes) << row.toStdString();
            }
        }
    }
    EXPECT_NE(out.find("cpu   usable"), std::string::npos) << out;
    const BackendAvailability availability = probeBackends();
    if (availability.cudaUsable)
        EXPECT_NE(out.find("cuda  usable"), std::string::npos) << out;
    else
        EXPECT_NE(out.find("cuda  not usable: " + availability.cudaReason), std::string::npos)
            << out;
}

TEST(CliHelp, DocumentsCommandsAndExitCodes) {
    const CliResult top = runCli({"--help"});
    EXPECT_EQ(top.exitCode, 0);
    EXPECT_TRUE(top.out.contains("list")) << top.out.toStdString();
    EXPECT_TRUE(top.out.contains("run")) << top.out.toStdString();
    const CliResult run = runCli({"run", "--help"});
    EXPECT_EQ(run.exitCode, 0);
    for (const char* text : {"--pipeline", "--variants", "--n <N>", "--repeat", "--warmup",
                             "--vector", "--backend", "--json", "Exit codes", "130"})
        EXPECT_TRUE(run.out.contains(text)) << text << "\n" << run.out.toStdString();
    EXPECT_TRUE(run.err.isEmpty());
}

TEST(CliHelp, VersionNamesTheProgram) {
    const CliResult result = runCli({"--version"});
    EXPECT_EQ(result.exitCode, 0);
    EXPECT_TRUE(result.out.startsWith("fusescope-cli ")) << result.out.toStdString();
}

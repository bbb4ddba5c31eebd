// The learner's kernel file: the header round trip, malformed headers named by line, the peak
// in flight the declared buffers ask for, and the checked, atomic save.
#include <gtest/gtest.h>

#include <QFile>
#include <QTemporaryDir>

#include "model/lab/learner_kernel.h"

using namespace fusescope::model;

namespace {

LearnerKernel starter() {
    LearnerKernel kernel;
    kernel.entry = QStringLiteral("swiglu_lab");
    kernel.reference = QStringLiteral("swiglu");
    kernel.buffers = {{QStringLiteral("gate"), LearnerBufferRole::Input},
                      {QStringLiteral("up"), LearnerBufferRole::Input},
                      {QStringLiteral("scratch"), LearnerBufferRole::Scratch},
                      {QStringLiteral("out"), LearnerBufferRole::Output}};
    kernel.passes = {{false, QStringLiteral("gate")},
                     {true, QStringLiteral("scratch")},
                     {false, QStringLiteral("scratch")},
                     {false, QStringLiteral("up")},
                     {true, QStringLiteral("out")}};
    kernel.source = QStringLiteral("extern \"C\" __global__ void swiglu_lab() {}\n");
    return kernel;
}

// The message of a header that fails, with the line it names.
std::string failure(const QString& text) {
    const auto parsed = parseLearnerKernel(text);
    EXPECT_FALSE(parsed);
    return parsed ? std::string() : parsed.status().message();
}

}  // namespace

TEST(LearnerKernel, HeaderRoundTripsExactly) {
    const LearnerKernel kernel = starter();
    const QString text = writeLearnerKernel(kernel);
    const auto parsed = parseLearnerKernel(text);
    ASSERT_TRUE(parsed) << parsed.status().message();
    EXPECT_EQ(*parsed, kernel);
    EXPECT_EQ(writeLearnerKernel(*parsed), text);
    // The source starts on the line after the header.
    EXPECT_EQ(text.split(QLatin1Char('\n')).indexOf(kernel.source.split('\n').first()),
              kernel.headerLines());
}

TEST(LearnerKernel, DeletingTheScratchBufferDropsThePeakByNTimesFourBytes) {
    LearnerKernel kernel = starter();
    const std::uint64_t n = std::uint64_t{1} << 24;
    const std::uint64_t before = kernel.peakBytes(n);
    kernel.buffers.removeAt(2);
    EXPECT_EQ(before - kernel.peakBytes(n), n * 4);
}

TEST(LearnerKernel, MalformedHeadersAreNamedByLine) {
    EXPECT_EQ(failure(QStringLiteral("extern \"C\" __global__ void k() {}")),
              "line 1: a kernel file starts with \"// fusescope-kernel 1\"");
    const QString good = writeLearnerKernel(starter());
    QStringList lines = good.split(QLatin1Char('\n'));
    lines[3] = QStringLiteral("// buffer: inptu gate");
    EXPECT_EQ(failure(lines.join('\n')),
              "line 4: the role \"inptu\" is none of input, output, scratch");
    lines = good.split(QLatin1Char('\n'));
    lines[8] = QStringLiteral("// pass: read gates");
    EXPECT_EQ(failure(lines.join('\n')),
              "line 9: the pass names \"gates\", which no buffer line above declares");
    lines = good.split(QLatin1Char('\n'));
    lines[4] = QStringLiteral("// buffer: input gate");
    EXPECT_EQ(failure(lines.join('\n')), "line 5: the buffer \"gate\" is declared twice");
    lines = good.split(QLatin1Char('\n'));
    lines[1] = QStringLiteral("// entry: 2fast");
    EXPECT_EQ(failure(lines.join('\n')), "line 2: entry \"2fast\" is no C identifier");
    lines = good.split(QLatin1Char('\n'));
    lines[12] = QStringLiteral("int x;");
    EXPECT_EQ(failure(lines.join('\n')),
              "line 13: the header ends with \"// end\" before any code");
    EXPECT_EQ(failure(lines.mid(0, 5).join('\n')),
              "line 5: the file ends inside the header (no \"// end\")");
    lines = good.split(QLatin1Char('\n'));
    lines.removeAt(6);   // the output buffer
    lines.removeAt(10);  // and its pass
    EXPECT_EQ(failure(lines.join('\n')), "line 11: no output buffer");
}

TEST(LearnerKernel, SavesAtomicallyAndLoadsBackWithTheFileInErrors) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("solution.cu"));
    ASSERT_TRUE(saveLearnerKernel(starter(), path));
    const auto loaded = loadLearnerKernel(path);
    ASSERT_TRUE(loaded) << loaded.status().message();
    EXPECT_EQ(*loaded, starter());
    // A save into a folder that does not exist fails, and says so.
    const fusescope::Status failed =
        saveLearnerKernel(starter(), dir.filePath(QStringLiteral("missing/solution.cu")));
    EXPECT_FALSE(failed);
    EXPECT_NE(failed.message().find("missing/solution.cu"), std::string::npos);
    QFile broken(dir.filePath(QStringLiteral("broken.cu")));
    ASSERT_TRUE(broken.open(QIODevice::WriteOnly));
    broken.write("// fusescope-kernel 1\n// entry swiglu_lab\n");
    broken.close();
    const auto refused = loadLearnerKernel(broken.fileName());
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.status().message(),
              broken.fileName().toStdString() + ": line 2: expected \"KEY: VALUE\"");
}

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

// The kernel's text parses back to the same kernel and the same text, its source on the line
// after the header.
void expectRoundTrip(const LearnerKernel& kernel, const QString& text) {
    const auto parsed = parseLearnerKernel(text);
    ASSERT_TRUE(parsed) << parsed.status().message();
    EXPECT_EQ(*parsed, kernel);
    EXPECT_EQ(writeLearnerKernel(*parsed), text);
    EXPECT_EQ(text.split(QLatin1Char('\n')).indexOf(kernel.source.split('\n').first()),
              kernel.headerLines());
}

TEST(LearnerKernel, HeaderRoundTripsExactly) {
    const LearnerKernel kernel = starter();
    expectRoundTrip(kernel, writeLearnerKernel(kernel));
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

// A blank kernel: the expression in place of the reference, its buffers from the expression.
TEST(LearnerKernel, ABlankKernelsExpressionRoundTripsAndGivesItsBuffers) {
    const auto blank =
        blankKernelFor(QStringLiteral("t = x * 2;  out = t + y"), QStringLiteral("blank_kernel"));
    ASSERT_TRUE(blank) << blank.status().message();
    EXPECT_EQ(blank->expression, QStringLiteral("t = x * 2; out = t + y"));
    EXPECT_TRUE(blank->reference.isEmpty());
    const QVector<LearnerBuffer> buffers = {{QStringLiteral("x"), LearnerBufferRole::Input},
                                            {QStringLiteral("y"), LearnerBufferRole::Input},
                                            {QStringLiteral("out"), LearnerBufferRole::Output}};
    EXPECT_EQ(blank->buffers, buffers);
    EXPECT_EQ(blank->passCount(), 3);
    LearnerKernel kernel = *blank;
    kernel.source = QStringLiteral("extern \"C\" __global__ void blank_kernel() {}\n");
    const QString text = writeLearnerKernel(kernel);
    EXPECT_TRUE(text.contains(QStringLiteral("\n// expression: t = x * 2; out = t + y\n")));
    expectRoundTrip(kernel, text);
}

TEST(LearnerKernel, AnEarlierOutputOfABlankKernelsExpressionIsScratch) {
    const auto blank = blankKernelFor(QStringLiteral("a = x + 1; b = x * 3"), QStringLiteral("k"));
    ASSERT_TRUE(blank) << blank.status().message();
    ASSERT_EQ(blank->buffers.size(), 3);
    EXPECT_EQ(blank->buffers[1], (LearnerBuffer{QStringLiteral("a"), LearnerBufferRole::Scratch}));
    EXPECT_EQ(blank->buffers[2], (LearnerBuffer{QStringLiteral("b"), LearnerBufferRole::Output}));
}

TEST(LearnerKernel, ABadExpressionIsRefusedAtItsCharacter) {
    const auto blank = blankKernelFor(QStringLiteral("out = x * "), QStringLiteral("k"));
    ASSERT_FALSE(blank);
    EXPECT_NE(blank.status().message().find("at character 11"), std::string::npos)
        << blank.status().message();
}

TEST(LearnerKernel, AHeaderHasAReferenceOrAnExpressionNotBoth) {
    const QString both = QStringLiteral(
        "// fusescope-kernel 1\n// entry: k\n// reference: swiglu\n// expression: out = x\n"
        "// buffer: output out\n// end\n");
    EXPECT_NE(failure(both).find("line 6: give a \"reference:\" line or an \"expression:\" line"),
              std::string::npos)
        << failure(both);
    const QString neither =
        QStringLiteral("// fusescope-kernel 1\n// entry: k\n// buffer: output out\n// end\n");
    EXPECT_NE(failure(neither).find("line 4: give a \"reference:\""), std::string::npos)
        << failure(neither);
}

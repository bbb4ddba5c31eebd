// NVRTC's log as the Lab view lists it: one entry per error or warning with its line.
#include <gtest/gtest.h>

#include "model/lab/compile_messages.h"

using namespace fusescope::model;

TEST(CompileMessages, ErrorsAndWarningsWithTheirLinesAndContext) {
    const QString log = QStringLiteral(
        "bad.cu(26): error: identifier \"gg\" is undefined\n"
        "          scratch[i] = g / (1.0f + expf(-gg));\n"
        "                                         ^\n"
        "\n"
        "bad.cu(31): warning #177-D: variable \"unused\" was declared but never referenced\n"
        "          float unused = 1;\n"
        "                ^\n"
        "\n"
        "Remark: The warnings can be suppressed with \"-diag-suppress <warning-number>\"\n"
        "\n"
        "1 error detected in the compilation of \"bad.cu\".\n");
    const QVector<CompileMessage> messages = parseCompileLog(log);
    ASSERT_EQ(messages.size(), 2);
    EXPECT_EQ(messages[0].line, 26);
    EXPECT_EQ(messages[0].severity, CompileSeverity::Error);
    EXPECT_EQ(messages[0].text, QStringLiteral("identifier \"gg\" is undefined"));
    EXPECT_TRUE(messages[0].context.contains(QStringLiteral("expf(-gg)")));
    EXPECT_EQ(messages[1].line, 31);
    EXPECT_EQ(messages[1].severity, CompileSeverity::Warning);
    EXPECT_FALSE(messages[1].context.contains(QStringLiteral("Remark")));
}

TEST(CompileMessages, ShiftedToTheEditorsLinesAfterTheHeader) {
    QVector<CompileMessage> messages{{20, CompileSeverity::Error, QStringLiteral("x"), {}},
                                     {3, CompileSeverity::Error, QStringLiteral("y"), {}}};
    messages = shiftedLines(messages, 13);
    EXPECT_EQ(messages[0].line, 7);
    EXPECT_EQ(messages[1].line, 1);  // inside the header: the first line
}

TEST(CompileMessages, NoMessagesInACleanLog) {
    EXPECT_TRUE(parseCompileLog(QString()).isEmpty());
}

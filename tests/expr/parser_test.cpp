// The expression language: what good chains parse to, and where bad ones are refused and why.
#include <gtest/gtest.h>

#include <string>

#include "expr/parser.h"
#include "parsed_program.h"

namespace fusescope::expr {
namespace {

ParseError refused(const std::string& text) {
    const ParseResult result = parseProgram(text);
    EXPECT_FALSE(result) << text << " parsed";
    return result ? ParseError{} : result.error();
}

Operand input(int index) {
    return {Operand::Kind::Input, index, 0.0f};
}
Operand value(int index) {
    return {Operand::Kind::Value, index, 0.0f};
}
Operand constant(float number) {
    return {Operand::Kind::Constant, 0, number};
}

TEST(ExpressionParser, AffineChainIsTwoOperationsOnOneInput) {
    const Program p = parsed("out = x * 2 + 3");
    ASSERT_EQ(p.inputs, std::vector<std::string>{"x"});
    ASSERT_EQ(p.operations.size(), 2u);
    EXPECT_EQ(p.operations[0].kind, OpKind::Multiply);
    EXPECT_EQ(p.operations[0].operands, (std::vector<Operand>{input(0), constant(2.0f)}));
    EXPECT_EQ(p.operations[0].position, 8u);
    EXPECT_EQ(p.operations[1].kind, OpKind::Add);
    EXPECT_EQ(p.operations[1].operands, (std::vector<Operand>{value(0), constant(3.0f)}));
    ASSERT_EQ(p.outputs.size(), 1u);
    EXPECT_EQ(p.outputs[0].name, "out");
    EXPECT_EQ(p.outputs[0].operation, 1);
    EXPECT_EQ(p.groups, 1);
}

TEST(ExpressionParser, SiluGateReadsTwoInputsInOrderOfUse) {
    const Program p = parsed("out = silu(g) * u");
    EXPECT_EQ(p.inputs, (std::vector<std::string>{"g", "u"}));
    ASSERT_EQ(p.operations.size(), 2u);
    EXPECT_EQ(p.operations[0].kind, OpKind::Silu);
    EXPECT_EQ(p.operations[1].operands, (std::vector<Operand>{value(0), input(1)}));
}

TEST(ExpressionParser, NormalizationFollowsPrecedenceAndParentheses) {
    const Program p = parsed("y = (x - m) * rsqrt(v + 1e-5) * w + b");
    EXPECT_EQ(p.inputs, (std::vector<std::string>{"x", "m", "v", "w", "b"}));
    ASSERT_EQ(p.operations.size(), 6u);
    const OpKind expected[] = {OpKind::Subtract, OpKind::Add,      OpKind::Rsqrt,
                               OpKind::Multiply, OpKind::Multiply, OpKind::Add};
    for (int k = 0; k < 6; ++k) EXPECT_EQ(p.operations[k].kind, expected[k]) << k;
    EXPECT_EQ(p.operations[1].operands[1], constant(1e-5f));
    EXPECT_EQ(p.operations[3].operands, (std::vector<Operand>{value(0), value(2)}));
    EXPECT_EQ(p.operations[5].operands, (std::vector<Operand>{value(4), input(4)}));
}

TEST(ExpressionParser, NamedIntermediatesAreReadAndUnreadNamesAreOutputs) {
    const Program p = parsed("t = x * 2; out1 = t + 3; out2 = max(t, -1.5)");
    ASSERT_EQ(p.names.size(), 1u);
    EXPECT_EQ(p.names[0].name, "t");
    EXPECT_EQ(p.names[0].value, value(0));
    ASSERT_EQ(p.outputs.size(), 2u);
    EXPECT_EQ(p.outputs[0].name, "out1");
    EXPECT_EQ(p.outputs[1].name, "out2");
    EXPECT_EQ(p.operations[2].kind, OpKind::Max);
    // A minus before a number is part of the constant, not an operation.
    EXPECT_EQ(p.operations[2].operands, (std::vector<Operand>{value(0), constant(-1.5f)}));
    EXPECT_EQ(p.nameOf(0), "t");
    EXPECT_EQ(p.outputOf(2), 1);
}

TEST(ExpressionParser, ParametersAreScalarsNotArrays) {
    const Program p = parsed("param alpha = -0.25; out = x * alpha");
    ASSERT_EQ(p.parameters.size(), 1u);
    EXPECT_EQ(p.parameters[0].name, "alpha");
    EXPECT_EQ(p.parameters[0].value, -0.25f);
    EXPECT_EQ(p.inputs, std::vector<std::string>{"x"});
    EXPECT_EQ(p.operations[0].operands[1], (Operand{Operand::Kind::Parameter, 0, 0.0f}));
}

TEST(ExpressionParser, BarsSplitStatementsIntoKernels) {
    const Program p = parsed("a = exp(x) | b = a * y; out = -b | c = b + 1");
    EXPECT_EQ(p.groups, 3);
    ASSERT_EQ(p.operations.size(), 4u);
    const int groups[] = {0, 1, 1, 2};
    for (int k = 0; k < 4; ++k) EXPECT_EQ(p.operations[k].group, groups[k]) << k;
    EXPECT_EQ(p.operations[2].kind, OpKind::Negate);
    EXPECT_EQ(p.outputs.size(), 2u);
}

TEST(ExpressionParser, EveryFunctionParsesWithItsArity) {
    const std::pair<std::string, OpKind> calls[] = {
        {"exp(a)", OpKind::Exp},     {"log(a)", OpKind::Log},         {"sqrt(a)", OpKind::Sqrt},
        {"rsqrt(a)", OpKind::Rsqrt}, {"sigmoid(a)", OpKind::Sigmoid}, {"silu(a)", OpKind::Silu},
        {"tanh(a)", OpKind::Tanh},   {"gelu(a)", OpKind::Gelu},       {"abs(a)", OpKind::Abs},
        {"min(a, b)", OpKind::Min},  {"max(a, 2 * b)", OpKind::Max}};
    for (const auto& [call, kind] : calls) {
        const Program p = parsed("out = " + call);
        ASSERT_FALSE(p.operations.empty()) << call;
        EXPECT_EQ(p.operations.back().kind, kind) << call;
        EXPECT_EQ(p.operations.back().operands.size(), static_cast<std::size_t>(opInfo(kind).arity))
            << call;
    }
}

TEST(ExpressionParser, AcceptsATrailingSemicolonAndNewlines) {
    const Program p = parsed("t = x * 2;\nout = t + 3;\n");
    EXPECT_EQ(p.operations.size(), 2u);
}

struct BadText {
    std::string text;
    std::size_t position;
    std::string inMessage;
};

void PrintTo(const BadText& bad, std::ostream* os) {
    *os << bad.text;
}

class ExpressionParserErrors : public ::testing::TestWithParam<BadText> {};

TEST_P(ExpressionParserErrors, PointAtTheCharacterAndSayWhy) {
    const BadText& bad = GetParam();
    const ParseError error = refused(bad.text);
    EXPECT_EQ(error.position, bad.position) << bad.text << ": " << error.message();
    EXPECT_NE(error.message().find(bad.inMessage), std::string::npos)
        << bad.text << ": " << error.message();
    EXPECT_EQ(error.message().find("at character " + std::to_string(bad.position + 1) + ":"), 0u)
        << error.message();
}

INSTANTIATE_TEST_SUITE_P(
    BadInput, ExpressionParserErrors,
    ::testing::Values(
        BadText{"out = x *", 9, "expected an expression"},
        BadText{"out = (x + 2", 12, "')' to close the '(' at character 7"},
        BadText{"out = x + 2)", 11, "expected ';', '|', an operator or the end"},
        BadText{"out x + 2", 4, "'=' after the name 'out'"}, BadText{"= x", 0, "a name to assign"},
        BadText{"out = x # 2", 8, "found '#'"}, BadText{"out = 2x", 6, "a malformed number"},
        BadText{"out = x * 1e39", 10, "beyond float32's range"},
        BadText{"out = foo(x)", 6, "'foo' is not a function; the functions are exp, log"},
        BadText{"out = exp x", 10, "'(' after the function 'exp'"},
        BadText{"out = min(x)", 11, "',' and a second argument: 'min' takes two"},
        BadText{"out = exp(x, y)", 11, "')': 'exp' takes one argument"},
        BadText{"out = x; out = x * 2", 9, "'out' is already assigned at character 1"},
        BadText{"out = x * 2; x = 3", 13, "'x' is an input array (read at character 7)"},
        BadText{"out = out * 2", 0, "read on its own right side"},
        BadText{"exp = x * 2", 0, "is a function"},
        BadText{"param a = 1; a = x * 2", 13, "already a parameter"},
        BadText{"param a = x; out = a", 10, "the parameter's value (a number)"},
        BadText{"t = x * 2; out = x", 11, "'out' is an output but computes nothing"},
        BadText{"out = 2 * 3", 0, "no input array"},
        BadText{"out = a+b+c+d+e+f+g+h+i", 22, "input array 9: at most 8 inputs"},
        BadText{[] {
                    std::string text = "out = x";
                    for (int k = 0; k < 17; ++k) text += "+1";
                    return text;
                }(),
                39, "operation 17: at most 16 in one chain"},
        BadText{"out = " + std::string(40, '(') + "x" + std::string(40, ')'), 38,
                "nested deeper than 32 levels"},
        BadText{"", 0, "a name to assign"}, BadText{"out = x;;", 8, "a name to assign"}));

TEST(ExpressionParser, RefusesOverlongTextBeforeReadingIt) {
    const ParseError error = refused("out = x" + std::string(kMaxTextLength, ' '));
    EXPECT_NE(error.message().find("longer than"), std::string::npos) << error.message();
}

TEST(ExpressionParser, StatusCarriesThePositionedMessage) {
    const ParseResult result = parseProgram("out = x *");
    EXPECT_EQ(result.status().code(), ErrorCode::InvalidArgument);
    EXPECT_EQ(result.status().message(), result.error().message());
}

}  // namespace
}  // namespace fusescope::expr

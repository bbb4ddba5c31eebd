#pragma once
// The expression language:
//   program   := statement (( ";" | "|" ) statement)* [";"]
//   statement := ["param"] name "=" sum         (a parameter's value is a number)
//   sum       := product (("+" | "-") product)*
//   product   := unary (("*" | "/") unary)*
//   unary     := "-" unary | primary
//   primary   := number | name | function "(" sum ["," sum] ")" | "(" sum ")"
// A name read before it is assigned is an input array; an assigned name that nothing reads is
// an output. "|" ends a statement and a kernel of the learner's split.
#include <cstddef>
#include <string>
#include <string_view>
#include <variant>

#include "core/status.h"
#include "expr/expression.h"

namespace fusescope::expr {

// Texts longer than this are refused before they are read.
inline constexpr std::size_t kMaxTextLength = 4096;
inline constexpr int kMaxNesting = 32;

struct ParseError {
    std::size_t position = 0;  // the character it points at, from 0
    std::string expected;      // "an expression", "')'"
    std::string found;         // "the end of the text", "'*'"
    std::string reason;        // when the text is well formed but not allowed, why

    // "at character 12: expected ')', found the end of the text" (the character counted from 1).
    std::string message() const;
};

class ParseResult {
  public:
    ParseResult(Program program) : state_(std::move(program)) {}
    ParseResult(ParseError error) : state_(std::move(error)) {}
    bool isOk() const { return std::holds_alternative<Program>(state_); }
    explicit operator bool() const { return isOk(); }
    const Program& program() const { return std::get<Program>(state_); }
    const ParseError& error() const { return std::get<ParseError>(state_); }
    Status status() const;

  private:
    std::variant<Program, ParseError> state_;
};

ParseResult parseProgram(std::string_view text);

}  // namespace fusescope::expr

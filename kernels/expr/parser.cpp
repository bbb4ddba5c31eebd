#include "expr/parser.h"

#include <charconv>
#include <cmath>
#include <map>
#include <optional>
#include <vector>

#include "expr/lexer.h"

namespace fusescope::expr {
namespace {

constexpr std::string_view kParameterKeyword = "param";

// What a name stands for at a point of the text.
struct Binding {
    enum class Kind { Input, Parameter, Named };
    Kind kind = Kind::Input;
    int index = 0;             // input, parameter or names index
    std::size_t position = 0;  // where it was first read (input) or assigned
};

// Thrown inside the parser only, caught by parseProgram: the first error ends the parse.
struct Failure {
    ParseError error;
};

class Parser {
  public:
    explicit Parser(std::string_view text) : tokens_(tokenize(text)) { program_.text = text; }

    Program parse() {
        while (true) {
            statement();
            const Token& separator = peek();
            if (separator.kind == TokenKind::End) break;
            if (separator.kind == TokenKind::Semicolon) {
                next();
                if (peek().kind == TokenKind::End) break;
                continue;
            }
            if (separator.kind == TokenKind::Bar) {
                next();
                ++program_.groups;
                continue;
            }
            fail(separator, "';', '|', an operator or the end of the text");
        }
        finish();
        return std::move(program_);
    }

  private:
    const Token& peek() const { return tokens_[next_]; }
    const Token& peekAfter() const { return tokens_[std::min(next_ + 1, tokens_.size() - 1)]; }
    const Token& next() {
        const Token& token = tokens_[next_];
        if (token.kind != TokenKind::End && token.kind != TokenKind::Invalid) ++next_;
        return token;
    }

    [[noreturn]] void fail(const Token& token, std::string expected) {
        throw Failure{{token.position, std::move(expected), describeToken(token), {}}};
    }
    [[noreturn]] void refuse(std::size_t position, std::string reason) {
        throw Failure{{position, {}, {}, std::move(reason)}};
    }

    const Token& expect(TokenKind kind, std::string expected) {
        if (peek().kind != kind) fail(peek(), std::move(expected));
        return next();
    }

    void statement() {
        if (peek().kind == TokenKind::Name && peek().text == kParameterKeyword &&
            peekAfter().kind == TokenKind::Name) {
            next();
            parameter();
            return;
        }
        const Token& target = expect(TokenKind::Name, "a name to assign ('out = ...')");
        checkAssignable(target);
        expect(TokenKind::Equals, "'=' after " + describeToken(target));
        const Operand value = sum();
        if (bindings_.contains(std::string(target.text)))
            refuse(target.position, quoted(target.text) +
                                        " is read on its own right side: an input array and "
                                        "an assigned value need different names");
        assigned_.push_back({std::string(target.text), value, target.position});
        bindings_[std::string(target.text)] = {
            Binding::Kind::Named, static_cast<int>(assigned_.size() - 1), target.position};
    }

    void parameter() {
        const Token& name = expect(TokenKind::Name, "the parameter's name");
        checkAssignable(name);
        expect(TokenKind::Equals, "'=' after the parameter's name");
        bool negative = false;
        if (peek().kind == TokenKind::Minus) {
            next();
            negative = true;
        }
        const float value = number(expect(TokenKind::Number, "the parameter's value (a number)"));
        program_.parameters.push_back({std::string(name.text), negative ? -value : value});
        bindings_[std::string(name.text)] = {Binding::Kind::Parameter,
                                             static_cast<int>(program_.parameters.size() - 1),
                                             name.position};
    }

    void checkAssignable(const Token& name) {
        if (functionNamed(name.text))
            refuse(name.position,
                   quoted(name.text) + " is a function: choose another name for the value");
        const auto found = bindings_.find(std::string(name.text));
        if (found == bindings_.end()) return;
        const std::string shown = quoted(name.text);
        const std::string at = " at character " + std::to_string(found->second.position + 1);
        switch (found->second.kind) {
            case Binding::Kind::Input:
                refuse(name.position, shown + " is an input array (read" + at +
                                          "): a name is assigned before it is read");
            case Binding::Kind::Parameter:
                refuse(name.position, shown + " is already a parameter (declared" + at + ")");
            case Binding::Kind::Named:
                refuse(name.position,
                       shown + " is already assigned" + at + ": each name is assigned once");
        }
    }

    // One level of left-associative binary operators: `first` and `second` are its two tokens,
    // each with the operation it makes; `operand` parses the tighter level below.
    Operand binaryLevel(Operand (Parser::*operand)(), TokenKind first, OpKind firstOp,
                        TokenKind second, OpKind secondOp) {
        Operand left = (this->*operand)();
        while (peek().kind == first || peek().kind == second) {
            const Token& op = next();
            const Operand right = (this->*operand)();
            left = operation(op.kind == first ? firstOp : secondOp, {left, right}, op.position);
        }
        return left;
    }

    Operand sum() {
        return binaryLevel(&Parser::product, TokenKind::Plus, OpKind::Add, TokenKind::Minus,
                           OpKind::Subtract);
    }

    Operand product() {
        return binaryLevel(&Parser::unary, TokenKind::Star, OpKind::Multiply, TokenKind::Slash,
                           OpKind::Divide);
    }

    Operand unary() {
        if (peek().kind != TokenKind::Minus) return primary();
        const Token& minus = next();
        // A negative number is a constant, not an operation.
        if (peek().kind == TokenKind::Number) {
            Operand constant = primary();
            constant.constant = -constant.constant;
            return constant;
        }
        const Nesting nesting(*this, minus);
        return operation(OpKind::Negate, {unary()}, minus.position);
    }

    Operand primary() {
        const Token& token = peek();
        switch (token.kind) {
            case TokenKind::Number:
                next();
                return {Operand::Kind::Constant, 0, number(token)};
            case TokenKind::LeftParen: {
                next();
                const Nesting nesting(*this, token);
                const Operand inner = sum();
                expect(TokenKind::RightParen,
                       "')' to close the '(' at character " + std::to_string(token.position + 1));
                return inner;
            }
            case TokenKind::Name:
                next();
                if (const std::optional<OpKind> function = functionNamed(token.text))
                    return call(token, *function);
                if (peek().kind == TokenKind::LeftParen)
                    refuse(token.position, quoted(token.text) +
                                               " is not a function; the functions are " +
                                               functionNamesText());
                return read(token);
            default:
                fail(token, "an expression (a name, a number, a function, '(' or '-')");
        }
    }

    Operand call(const Token& name, OpKind kind) {
        const int arity = opInfo(kind).arity;
        const std::string shown = quoted(name.text);
        expect(TokenKind::LeftParen, "'(' after the function " + shown);
        const Nesting nesting(*this, name);
        std::vector<Operand> operands{sum()};
        if (arity == 2) {
            expect(TokenKind::Comma, "',' and a second argument: " + shown + " takes two");
            operands.push_back(sum());
        }
        expect(TokenKind::RightParen, arity == 2
                                          ? "')' after the second argument: " + shown + " takes two"
                                          : "')': " + shown + " takes one argument");
        return operation(kind, std::move(operands), name.position);
    }

    Operand read(const Token& name) {
        const std::string key(name.text);
        const auto found = bindings_.find(key);
        if (found != bindings_.end()) {
            const Binding& binding = found->second;
            switch (binding.kind) {
                case Binding::Kind::Input:
                    return {Operand::Kind::Input, binding.index, 0.0f};
                case Binding::Kind::Parameter:
                    return {Operand::Kind::Parameter, binding.index, 0.0f};
                case Binding::Kind::Named:
                    assigned_[binding.index].read = true;
                    return assigned_[binding.index].value;
            }
        }
        if (static_cast<int>(program_.inputs.size()) == kMaxInputs)
            refuse(name.position, quoted(key) + " would be input array " +
                                      std::to_string(kMaxInputs + 1) + ": at most " +
                                      std::to_string(kMaxInputs) + " inputs");
        program_.inputs.push_back(key);
        bindings_[key] = {Binding::Kind::Input, static_cast<int>(program_.inputs.size() - 1),
                          name.position};
        return {Operand::Kind::Input, static_cast<int>(program_.inputs.size() - 1), 0.0f};
    }

    float number(const Token& token) {
        double value = 0.0;
        const char* const end = token.text.data() + token.text.size();
        const auto [stop, error] = std::from_chars(token.text.data(), end, value);
        const auto single = static_cast<float>(value);
        if (error != std::errc() || stop != end || !std::isfinite(single) ||
            (value != 0.0 && single == 0.0f))
            refuse(token.position,
                   "the number " + std::string(token.text) + " is beyond float32's range");
        return single;
    }

    Operand operation(OpKind kind, std::vector<Operand> operands, std::size_t position) {
        if (static_cast<int>(program_.operations.size()) == kMaxOperations)
            refuse(position, "operation " + std::to_string(kMaxOperations + 1) + ": at most " +
                                 std::to_string(kMaxOperations) + " in one chain");
        program_.operations.push_back({kind, std::move(operands), program_.groups - 1, position});
        return {Operand::Kind::Value, static_cast<int>(program_.operations.size() - 1), 0.0f};
    }

    // Assigned names nothing reads are the outputs; the others are named intermediates.
    void finish() {
        for (const Assignment& assignment : assigned_) {
            if (assignment.read) {
                program_.names.push_back({assignment.name, assignment.value});
                continue;
            }
            if (assignment.value.kind != Operand::Kind::Value)
                refuse(assignment.position,
                       quoted(assignment.name) +
                           " is an output but computes nothing: it copies a value (an output "
                           "is an assigned name nothing reads)");
            program_.outputs.push_back({assignment.name, assignment.value.index});
        }
        if (program_.outputs.empty())
            refuse(program_.text.size(),
                   "no output: every assigned name is read again (an "
                   "output is an assigned name nothing reads)");
        if (program_.inputs.empty())
            refuse(0, "no input array: the chain reads no name it does not assign");
    }

    // Counts '(' and calls so that deeply nested text is refused before it exhausts the stack.
    class Nesting {
      public:
        Nesting(Parser& parser, const Token& token) : parser_(parser) {
            if (++parser_.depth_ > kMaxNesting)
                parser_.refuse(token.position,
                               "nested deeper than " + std::to_string(kMaxNesting) + " levels");
        }
        ~Nesting() { --parser_.depth_; }
        Nesting(const Nesting&) = delete;
        Nesting& operator=(const Nesting&) = delete;

      private:
        Parser& parser_;
    };

    struct Assignment {
        std::string name;
        Operand value;
        std::size_t position = 0;
        bool read = false;
    };

    std::vector<Token> tokens_;
    std::size_t next_ = 0;
    int depth_ = 0;
    Program program_;
    std::map<std::string, Binding, std::less<>> bindings_;
    std::vector<Assignment> assigned_;
};

}  // namespace

std::string ParseError::message() const {
    const std::string at = "at character " + std::to_string(position + 1) + ": ";
    if (!reason.empty()) return at + reason;
    return at + "expected " + expected + ", found " + found;
}

Status ParseResult::status() const {
    if (isOk()) return Status::ok();
    return Status(ErrorCode::InvalidArgument, error().message());
}

ParseResult parseProgram(std::string_view text) {
    if (text.size() > kMaxTextLength)
        return ParseError{
            kMaxTextLength,
            {},
            {},
            "the text is longer than " + std::to_string(kMaxTextLength) + " characters"};
    try {
        return Parser(text).parse();
    } catch (const Failure& failure) {
        return failure.error;
    }
}

}  // namespace fusescope::expr

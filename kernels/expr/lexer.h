#pragma once
// The expression language's tokens: names, numbers, + - * / ( ) , = ; | and the end.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace fusescope::expr {

enum class TokenKind {
    Name,
    Number,
    Plus,
    Minus,
    Star,
    Slash,
    LeftParen,
    RightParen,
    Comma,
    Equals,
    Semicolon,
    Bar,
    End,
    Invalid  // a character the language does not use, or a malformed number
};

struct Token {
    TokenKind kind = TokenKind::End;
    std::size_t position = 0;  // of the first character, from 0
    std::string_view text;
};

// Every token of `text`, ending with one End token (or stopping at the first Invalid one).
std::vector<Token> tokenize(std::string_view text);

// 'text', in single quotes, for messages.
std::string quoted(std::string_view text);

// How a token reads in a message: "'+'", "the name 'x'", "the end of the text".
std::string describeToken(const Token& token);

}  // namespace fusescope::expr

#include "expr/lexer.h"

namespace fusescope::expr {
namespace {

bool isLetter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool isDigit(char c) {
    return c >= '0' && c <= '9';
}
bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// digits [. digits] [e [+-] digits], or . digits [...]: the length, or 0 when malformed.
std::size_t numberLength(std::string_view text, std::size_t start) {
    std::size_t i = start;
    const auto digits = [&] {
        const std::size_t first = i;
        while (i < text.size() && isDigit(text[i])) ++i;
        return i - first;
    };
    std::size_t mantissaDigits = digits();
    if (i < text.size() && text[i] == '.') {
        ++i;
        mantissaDigits += digits();
    }
    if (mantissaDigits == 0) return 0;
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
        if (digits() == 0) return 0;
    }
    // "2x" is neither a number nor a product.
    if (i < text.size() && (isLetter(text[i]) || text[i] == '_' || text[i] == '.')) return 0;
    return i - start;
}

struct Punctuation {
    char character;
    TokenKind kind;
};
constexpr Punctuation kPunctuation[] = {
    {'+', TokenKind::Plus},  {'-', TokenKind::Minus},     {'*', TokenKind::Star},
    {'/', TokenKind::Slash}, {'(', TokenKind::LeftParen}, {')', TokenKind::RightParen},
    {',', TokenKind::Comma}, {'=', TokenKind::Equals},    {';', TokenKind::Semicolon},
    {'|', TokenKind::Bar},
};

TokenKind punctuation(char c) {
    for (const Punctuation& entry : kPunctuation)
        if (entry.character == c) return entry.kind;
    return TokenKind::Invalid;
}

}  // namespace

std::vector<Token> tokenize(std::string_view text) {
    std::vector<Token> tokens;
    std::size_t i = 0;
    while (true) {
        while (i < text.size() && isSpace(text[i])) ++i;
        if (i == text.size()) {
            tokens.push_back({TokenKind::End, i, {}});
            return tokens;
        }
        const char c = text[i];
        if (isLetter(c)) {
            std::size_t end = i + 1;
            while (end < text.size() &&
                   (isLetter(text[end]) || isDigit(text[end]) || text[end] == '_'))
                ++end;
            tokens.push_back({TokenKind::Name, i, text.substr(i, end - i)});
            i = end;
        } else if (isDigit(c) || c == '.') {
            const std::size_t length = numberLength(text, i);
            if (length == 0) {
                tokens.push_back({TokenKind::Invalid, i, text.substr(i, 1)});
                return tokens;
            }
            tokens.push_back({TokenKind::Number, i, text.substr(i, length)});
            i += length;
        } else {
            const TokenKind kind = punctuation(c);
            tokens.push_back({kind, i, text.substr(i, 1)});
            if (kind == TokenKind::Invalid) return tokens;
            ++i;
        }
    }
}

std::string quoted(std::string_view text) {
    std::string result;
    result.reserve(text.size() + 2);
    result += '\'';
    result += text;
    result += '\'';
    return result;
}

std::string describeToken(const Token& token) {
    switch (token.kind) {
        case TokenKind::Name:
            return "the name " + quoted(token.text);
        case TokenKind::Number:
            return "the number " + std::string(token.text);
        case TokenKind::End:
            return "the end of the text";
        case TokenKind::Invalid: {
            const unsigned char c =
                static_cast<unsigned char>(token.text.empty() ? 0 : token.text[0]);
            if ((c >= '0' && c <= '9') || c == '.') return "a malformed number";
            if (c >= 0x21 && c < 0x7F) return quoted(token.text);
            return "a character the language does not use";
        }
        default:
            return quoted(token.text);
    }
}

}  // namespace fusescope::expr

#pragma once
// The one rule for an element count N as people type it, for the run panel, the sweep tab,
// settings and every command line: a whole number, optionally grouped with ',', '_' or ' '
// ("16,777,216"), or a power of two ("2^24"); at least 1 and within 64 bits.
#include <QString>
#include <QtGlobal>
#include <optional>

namespace fusescope::model {

struct ElementCount {
    enum class Problem {
        None,
        NotAWholeNumber,
        BelowOne,           // zero or negative
        PastSixtyFourBits,  // callers that know the device name its limit instead
    };
    quint64 value = 0;  // set when problem is None
    Problem problem = Problem::None;

    bool ok() const { return problem == Problem::None; }
};

ElementCount parseElementCount(const QString& text);
// The value when the text follows the rule; nothing otherwise.
std::optional<quint64> elementCountValue(const QString& text);

}  // namespace fusescope::model

// The one rule for N, shared by the run panel, the sweep tab, settings and both command lines.
#include <gtest/gtest.h>

#include "model/element_count.h"

namespace fusescope::model {
namespace {

using Problem = ElementCount::Problem;

TEST(ElementCount, AcceptsWholeNumbersGroupedOrNot) {
    EXPECT_EQ(elementCountValue(QStringLiteral("16777216")), quint64{16777216});
    EXPECT_EQ(elementCountValue(QStringLiteral("16,777,216")), quint64{16777216});
    EXPECT_EQ(elementCountValue(QStringLiteral("16_777_216")), quint64{16777216});
    EXPECT_EQ(elementCountValue(QStringLiteral("16 777 216")), quint64{16777216});
    EXPECT_EQ(elementCountValue(QStringLiteral("1")), quint64{1});
    EXPECT_EQ(elementCountValue(QStringLiteral("1000001")), quint64{1000001});
    EXPECT_EQ(elementCountValue(QStringLiteral("18446744073709551615")),
              quint64{18446744073709551615ull});
}

TEST(ElementCount, AcceptsPowersOfTwoBelowSixtyFour) {
    EXPECT_EQ(elementCountValue(QStringLiteral(" 2^24 ")), quint64{1} << 24);
    EXPECT_EQ(elementCountValue(QStringLiteral("2^0")), quint64{1});
    EXPECT_EQ(elementCountValue(QStringLiteral("2^63")), quint64{1} << 63);
}

TEST(ElementCount, SaysWhatIsWrong) {
    EXPECT_EQ(parseElementCount(QStringLiteral("0")).problem, Problem::BelowOne);
    EXPECT_EQ(parseElementCount(QStringLiteral("-5")).problem, Problem::BelowOne);
    EXPECT_EQ(parseElementCount(QStringLiteral("-99999999999999999999999")).problem,
              Problem::BelowOne);
    EXPECT_EQ(parseElementCount(QStringLiteral("abc")).problem, Problem::NotAWholeNumber);
    EXPECT_EQ(parseElementCount(QStringLiteral("")).problem, Problem::NotAWholeNumber);
    EXPECT_EQ(parseElementCount(QStringLiteral("1.5")).problem, Problem::NotAWholeNumber);
    EXPECT_EQ(parseElementCount(QStringLiteral("2^64")).problem, Problem::PastSixtyFourBits);
    EXPECT_EQ(parseElementCount(QStringLiteral("2^99")).problem, Problem::PastSixtyFourBits);
    EXPECT_EQ(parseElementCount(QStringLiteral("2^100")).problem, Problem::PastSixtyFourBits);
    EXPECT_EQ(parseElementCount(QStringLiteral("99999999999999999999999")).problem,
              Problem::PastSixtyFourBits);
    for (const char* bad : {"0", "-5", "abc", "", "2^99", "99999999999999999999999"})
        EXPECT_FALSE(elementCountValue(QString::fromLatin1(bad))) << bad;
}

}  // namespace
}  // namespace fusescope::model

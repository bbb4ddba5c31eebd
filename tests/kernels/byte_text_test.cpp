// Byte counts in the engine's sentences read as the tables do: a kernel's 28.7 kB of writes is
// not "0.0 MB", and 3.03 GB is not "3030.0 MB".
#include <gtest/gtest.h>

#include <limits>

#include "core/byte_text.h"

using fusescope::bytesText;
using fusescope::kibibytesText;

TEST(ByteText, ThreeSignificantDigitsInTheUnitThatFits) {
    EXPECT_EQ(bytesText(0), "0 B");
    EXPECT_EQ(bytesText(999), "999 B");
    EXPECT_EQ(bytesText(1000), "1.00 kB");
    EXPECT_EQ(bytesText(28'672), "28.7 kB");
    EXPECT_EQ(bytesText(352.6e6), "353 MB");
    EXPECT_EQ(bytesText(3.03e9), "3.03 GB");
    EXPECT_EQ(bytesText(352.5e6), "353 MB");  // a half rounds up
    EXPECT_EQ(bytesText(15'267.3e6), "15.3 GB");
}

TEST(ByteText, AValueThatRoundsUpTakesTheNextUnit) {
    EXPECT_EQ(bytesText(999.6), "1.00 kB");
    EXPECT_EQ(bytesText(999'600), "1.00 MB");
    EXPECT_EQ(bytesText(999'400), "999 kB");
    EXPECT_EQ(bytesText(999'960, 4), "1.000 MB");
    EXPECT_EQ(bytesText(999'940, 4), "999.9 kB");
    EXPECT_EQ(bytesText(9'996), "10.0 kB");  // three digits, not "10.00 kB"
    EXPECT_EQ(bytesText(99'960), "100 kB");
}

TEST(ByteText, FourDigitsTellCloseCountsApart) {
    EXPECT_EQ(bytesText(352.6e6, 4), "352.6 MB");
    EXPECT_EQ(bytesText(353.4e6, 4), "353.4 MB");
    EXPECT_EQ(bytesText(1.26e9, 4), "1.260 GB");
}

TEST(ByteText, NegativeAndNonFiniteCountsSaySo) {
    EXPECT_EQ(bytesText(-28'672), "-28.7 kB");
    EXPECT_EQ(bytesText(std::numeric_limits<double>::quiet_NaN()), "- B");
    EXPECT_EQ(bytesText(std::numeric_limits<double>::infinity()), "- B");
}

TEST(ByteText, KibibytesAsTheGpuStatesItsSharedMemory) {
    EXPECT_EQ(kibibytesText(232'448), "227.0 KiB");
    EXPECT_EQ(kibibytesText(245'760), "240.0 KiB");
}

#include "support/window_test_case.h"

#include <QtTest>

namespace testsupport {

void WindowTestCase::init() {
    QVERIFY(folder_.emplace().isValid());
}

}  // namespace testsupport

#pragma once
// A widget resized, shown and exposed, for the tests that look at a laid-out window.
#include <QSize>
#include <QTest>
#include <QWidget>

namespace testsupport {

// `window` at `size` logical pixels, shown; false when it is never exposed.
inline bool showAt(QWidget& window, QSize size) {
    window.resize(size);
    window.show();
    return QTest::qWaitForWindowExposed(&window);
}

}  // namespace testsupport

#pragma once
// A widget resized, shown and exposed, for the tests that look at a laid-out window.
#include <QSize>
#include <QTest>
#include <QWidget>

namespace testsupport {

// `window` shown at the size it has; false when it is never exposed.
inline bool showExposed(QWidget& window) {
    window.show();
    return QTest::qWaitForWindowExposed(&window);
}

// `window` at `size` logical pixels, shown; false when it is never exposed.
inline bool showAt(QWidget& window, QSize size) {
    window.resize(size);
    return showExposed(window);
}

}  // namespace testsupport

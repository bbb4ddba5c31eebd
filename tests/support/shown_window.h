#pragma once
// A widget resized, shown and exposed, for the tests that look at a laid-out window.
#include <QCoreApplication>
#include <QEvent>
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

// Every pending layout carried out. A layout that changes posts a request to its parent's, so a
// text that wraps anew climbs one level a round of the event loop; on a loaded machine a short
// wait may end rounds before the top. Ten rounds cover the window's deepest nesting.
inline void settleLayouts() {
    QCoreApplication::processEvents();
    for (int round = 0; round < 10; ++round)
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
}

}  // namespace testsupport

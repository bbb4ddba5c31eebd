// Pages that take the height while shown: each gets it whichever page was shown before, and the
// split the user had comes back when a page that takes none is chosen.
#include <QLabel>
#include <QSplitter>
#include <QTabWidget>
#include <QTest>

#include "ui/window/tab_room.h"

using fusescope::giveRoomWhileShown;

class TabRoomTest : public QObject {
    Q_OBJECT

  private slots:
    void everyRoomyPageGetsTheHeightFromAnyOther();
    void onAShortScreenTheOthersFoldAway();
};

void TabRoomTest::everyRoomyPageGetsTheHeightFromAnyOther() {
    QSplitter splitter(Qt::Vertical);
    auto* above = new QLabel(QStringLiteral("tables"));
    auto* tabs = new QTabWidget;
    splitter.addWidget(above);
    splitter.addWidget(tabs);
    QWidget* plain = new QLabel(QStringLiteral("charts"));
    QWidget* first = new QLabel(QStringLiteral("explorer"));
    QWidget* second = new QLabel(QStringLiteral("lab"));
    tabs->addTab(plain, QStringLiteral("Run charts"));
    tabs->addTab(first, QStringLiteral("Tile explorer"));
    tabs->addTab(second, QStringLiteral("Lab"));
    giveRoomWhileShown(tabs, first);
    giveRoomWhileShown(tabs, second);
    splitter.resize(400, 1000);
    splitter.show();
    QVERIFY(QTest::qWaitForWindowExposed(&splitter));
    splitter.setSizes({500, 500});
    const QList<int> users = splitter.sizes();

    const auto roomy = [&] { return splitter.sizes().at(1) > 3 * splitter.sizes().at(0); };
    // From the plain page to each, from one to the other either way, and back.
    int step = 0;
    for (QWidget* path : {first, second, first, plain, second, first, second, plain}) {
        ++step;
        tabs->setCurrentWidget(path);
        if (path == plain) {
            QVERIFY2(splitter.sizes() == users,
                     qPrintable(QStringLiteral("step %1: the user's split is not back").arg(step)));
        } else {
            QVERIFY2(roomy(), qPrintable(QStringLiteral("step %1: %2 shown with %3 / %4")
                                             .arg(step)
                                             .arg(tabs->tabText(tabs->indexOf(path)))
                                             .arg(splitter.sizes().at(0))
                                             .arg(splitter.sizes().at(1))));
        }
    }
}

// The window at 1280x720: 675 px for the views, of which the Results tables need 237 at least.
// Kept, they would leave a sweep 438 px (under two thirds); folded, it has all of them.
void TabRoomTest::onAShortScreenTheOthersFoldAway() {
    QSplitter splitter(Qt::Vertical);
    auto* above = new QLabel(QStringLiteral("tables"));
    above->setMinimumHeight(237);
    auto* tabs = new QTabWidget;
    splitter.addWidget(above);
    splitter.addWidget(tabs);
    QWidget* plain = new QLabel(QStringLiteral("charts"));
    QWidget* sweep = new QLabel(QStringLiteral("sweep"));
    QWidget* stage = new QLabel(QStringLiteral("stage"));
    tabs->addTab(plain, QStringLiteral("Run charts"));
    tabs->addTab(sweep, QStringLiteral("Size sweep"));
    tabs->addTab(stage, QStringLiteral("Memory stage"));
    giveRoomWhileShown(tabs, sweep, true);
    giveRoomWhileShown(tabs, stage, false);
    splitter.resize(400, 675 + splitter.handleWidth());
    splitter.show();
    QVERIFY(QTest::qWaitForWindowExposed(&splitter));
    splitter.setSizes({305, 370});

    tabs->setCurrentWidget(sweep);
    QCOMPARE(splitter.sizes().at(0), 0);
    // A page that does not fold the others leaves them their least height.
    tabs->setCurrentWidget(stage);
    QCOMPARE(splitter.sizes().at(0), 237);
    tabs->setCurrentWidget(plain);
    QCOMPARE(splitter.sizes(), (QList<int>{305, 370}));
}

QTEST_MAIN(TabRoomTest)
#include "tab_room_test.moc"

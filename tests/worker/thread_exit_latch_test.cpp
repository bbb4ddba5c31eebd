// The thread-exit latch: it opens only after every piece of the thread's own exit cleanup has run,
// a slow one included, which QThread::wait() alone does not wait for.
#include <pthread.h>

#include <QTest>
#include <QThread>
#include <atomic>
#include <chrono>

#include "worker/thread_exit_latch.h"

using namespace fusescope;
using namespace std::chrono_literals;

namespace {

// A piece of exit cleanup that takes a while, as Qt's own is: a thread key whose destructor
// sleeps, then says it has run.
std::atomic<int> slowCleanupsDone{0};

void slowCleanup(void*) {
    QThread::msleep(300);
    slowCleanupsDone.fetch_add(1);
}

pthread_key_t slowCleanupKey() {
    static const pthread_key_t key = [] {
        pthread_key_t made{};
        if (pthread_key_create(&made, slowCleanup) != 0) qFatal("no thread key left for the test");
        return made;
    }();
    return key;
}

// Gives the thread a slow exit cleanup as it starts. Added after the latch's watch, so its key is
// made after the latch's: glibc calls its destructor after the latch's in each round, which is the
// order a latch that opened in the first round would get wrong.
void addSlowCleanup(QThread& thread) {
    QObject::connect(
        &thread, &QThread::started, &thread,
        [] {
            static int marker = 0;
            if (pthread_setspecific(slowCleanupKey(), &marker) != 0) qFatal("setspecific failed");
        },
        Qt::DirectConnection);
}

}  // namespace

class ThreadExitLatchTest : public QObject {
    Q_OBJECT
  private slots:
    void opensOnlyAfterTheThreadsExitCleanup() {
        const int before = slowCleanupsDone.load();
        QThread thread;
        ThreadExitLatch latch;
        latch.watch(thread);
        addSlowCleanup(thread);
        thread.start();
        thread.quit();
        QVERIFY(thread.wait(5000));
        QVERIFY(latch.waitForExit(5s));
        QCOMPARE(slowCleanupsDone.load(), before + 1);
    }

    void waitsNoLongerThanItsLimitWhileTheThreadRuns() {
        QThread thread;
        ThreadExitLatch latch;
        latch.watch(thread);
        // Connected after the latch's own, so called after the latch has armed.
        std::atomic<bool> armed{false};
        QObject::connect(
            &thread, &QThread::started, &thread, [&armed] { armed = true; }, Qt::DirectConnection);
        thread.start();
        QTRY_VERIFY(armed.load());
        QVERIFY(!latch.waitForExit(50ms));
        thread.quit();
        QVERIFY(thread.wait(5000));
        QVERIFY(latch.waitForExit(5s));
    }

    void armsAgainWhenItsThreadStartsAgain() {
        const int before = slowCleanupsDone.load();
        QThread thread;
        ThreadExitLatch latch;
        latch.watch(thread);
        addSlowCleanup(thread);
        for (int round = 1; round <= 2; ++round) {
            thread.start();
            thread.quit();
            QVERIFY(thread.wait(5000));
            QVERIFY(latch.waitForExit(5s));
            QCOMPARE(slowCleanupsDone.load(), before + round);
        }
    }

    void aLatchNeverArmedDoesNotWait() {
        ThreadExitLatch latch;
        QVERIFY(latch.waitForExit(0ms));
    }
};

QTEST_GUILESS_MAIN(ThreadExitLatchTest)
#include "thread_exit_latch_test.moc"

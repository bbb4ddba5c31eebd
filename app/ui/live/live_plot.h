#pragma once
// qcustomplot.h for the live chart: it uses `foreach`, which QT_NO_FOREACH forbids.
#ifdef QT_NO_FOREACH
#undef QT_NO_FOREACH
#define FUSESCOPE_LIVE_RESTORE_QT_NO_FOREACH
#endif
#include <qcustomplot.h>
#ifdef FUSESCOPE_LIVE_RESTORE_QT_NO_FOREACH
#define QT_NO_FOREACH
#undef FUSESCOPE_LIVE_RESTORE_QT_NO_FOREACH
#endif

#pragma once
// The one place qcustomplot.h is included: it uses `foreach`, which QT_NO_FOREACH forbids.
#ifdef QT_NO_FOREACH
#undef QT_NO_FOREACH
#define FUSESCOPE_RESTORE_QT_NO_FOREACH
#endif
#include <qcustomplot.h>
#ifdef FUSESCOPE_RESTORE_QT_NO_FOREACH
#define QT_NO_FOREACH
#undef FUSESCOPE_RESTORE_QT_NO_FOREACH
#endif

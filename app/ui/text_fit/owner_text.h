#pragma once
// The fitter replaces the text of titles, captions, text items and axis labels with a fitted
// one; the text as the chart set it is kept on the holder, for the next fit and the tooltip.
#include <QObject>
#include <QString>
#include <QVariant>

namespace fusescope::text_fit {

// The holder's property with the text as its owner set it.
inline const char* const kFullText = "fusescopeFullText";

// The text as its owner set it: remembered the first time, and again whenever the owner
// sets a text that is not the fitted one.
inline QString ownText(QObject* holder, const QString& shown) {
    const QString fitted = holder->property("fusescopeFitted").toString();
    if (shown != fitted || holder->property(kFullText).isNull())
        holder->setProperty(kFullText, shown);
    return holder->property(kFullText).toString();
}

}  // namespace fusescope::text_fit

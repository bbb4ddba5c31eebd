#pragma once
// The engine keeps text as std::string; a view or a JSON file shows it as a QString.
#include <QString>
#include <string>

namespace fusescope::model {

inline QString toQString(const std::string& text) {
    return QString::fromStdString(text);
}

}  // namespace fusescope::model

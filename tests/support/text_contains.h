#pragma once
// Whether a program's text holds every expected part, or starts with the expected words; a failure
// names what is missing and prints the text once, not once per part.
#include <gtest/gtest.h>

#include <QString>
#include <QStringList>
#include <initializer_list>

namespace testsupport {

inline ::testing::AssertionResult containsAll(const QString& text,
                                              std::initializer_list<QString> parts) {
    QStringList missing;
    for (const QString& part : parts)
        if (!text.contains(part)) missing << QLatin1Char('\'') + part + QLatin1Char('\'');
    if (missing.isEmpty()) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure()
           << "missing " << missing.join(QStringLiteral(", ")).toStdString() << " in:\n"
           << text.toStdString();
}

inline ::testing::AssertionResult startsWith(const QString& text, const QString& start) {
    if (text.startsWith(start)) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "'" << start.toStdString() << "' does not start:\n"
                                         << text.toStdString();
}

}  // namespace testsupport

#pragma once
// Typed reads from parsed JSON that name the failing field by its path ("runs[2].kernels[0].
// time_ms"). Used by the recording loader; the first problem stops the load.
#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <cstddef>
#include <initializer_list>
#include <optional>
#include <stdexcept>

#include "core/status.h"

namespace fusescope::model {

// Thrown by JsonReader and caught by the loader, which turns it into a one-line error.
class JsonFieldError : public std::runtime_error {
  public:
    explicit JsonFieldError(const QString& message) : std::runtime_error(message.toStdString()) {}
};

// Largest integer a JSON number (an IEEE double) holds exactly: 2^53.
inline constexpr qint64 kLargestExactJsonInteger = qint64{1} << 53;

// Longest name, label or key a file may give, in characters: the window draws such text whole,
// and the buffers that draw it grow with it. Real names are under 200 characters.
inline constexpr qsizetype kMaxNameLength = 1024;
// Longest free text (a description, a compiler's error), in characters.
inline constexpr qsizetype kMaxFreeTextLength = 16384;

class JsonReader {
  public:
    JsonReader(const QJsonObject& object, QString path) : object_(object), path_(std::move(path)) {}

    // Required keys: missing, null or of another type throws; so does a string longer than
    // `maxLength` and a number that is not finite.
    QString string(const char* key, qsizetype maxLength = kMaxNameLength) const;
    double number(const char* key) const;
    int integer(const char* key) const;
    quint64 count(const char* key) const;  // non-negative, at most 2^53
    qint64 signedCount(const char* key) const;
    bool boolean(const char* key) const;
    // The index in `words` of the string the key holds; any other string throws, naming them.
    std::size_t wordIndex(const char* key, std::initializer_list<const char*> words) const;
    // A number in [lowest, highest]; outside throws with the range.
    double numberIn(const char* key, double lowest, double highest) const;
    QJsonArray array(const char* key) const;
    // An array of at most `limit` elements; a longer one throws with the limit.
    QJsonArray boundedArray(const char* key, qsizetype limit) const;
    JsonReader object(const char* key) const;

    // Optional keys: missing or null gives nullopt; present with another type throws.
    std::optional<QString> optionalString(const char* key,
                                          qsizetype maxLength = kMaxNameLength) const;
    std::optional<double> optionalNumber(const char* key) const;
    std::optional<double> optionalNumberIn(const char* key, double lowest, double highest) const;
    std::optional<int> optionalInteger(const char* key) const;
    std::optional<bool> optionalBoolean(const char* key) const;
    std::optional<quint64> optionalCount(const char* key) const;
    std::optional<qint64> optionalSignedCount(const char* key) const;
    std::optional<QJsonArray> optionalArray(const char* key) const;
    std::optional<JsonReader> optionalObject(const char* key) const;

    // The element `index` of an array read from `key`, as an object.
    JsonReader element(const QJsonArray& array, const char* key, qsizetype index) const;

    // The object's keys; one longer than kMaxNameLength throws.
    QStringList keys() const;
    QString pathOf(const char* key) const;
    [[noreturn]] void fail(const char* key, const QString& problem) const;
    // Throws unless `value` lies in [lowest, highest].
    double checkRange(const char* key, double value, double lowest, double highest) const;

  private:
    QJsonValue required(const char* key) const;
    std::optional<QJsonValue> present(const char* key) const;
    qint64 toInteger(const QJsonValue& value, const char* key, qint64 lowest, qint64 highest) const;

    QJsonObject object_;
    QString path_;
};

// Parses `json` as one JSON object and reads it with `read` (JsonReader -> T): malformed JSON,
// a document that is no object (`notAnObject` says what it should have been) and the first
// field error each become a one-line InvalidArgument status.
// The document's shape is checked first (checkJsonShape), so no file parses into gigabytes.
Status parseJsonObject(const QByteArray& json, const char* notAnObject, QJsonObject& object);

template <typename T, typename Read>
Result<T> readJsonObject(const QByteArray& json, const char* notAnObject, Read read) {
    QJsonObject object;
    if (Status s = parseJsonObject(json, notAnObject, object); !s) return s;
    try {
        return read(JsonReader(object, QString()));
    } catch (const JsonFieldError& problem) {
        return Status(ErrorCode::InvalidArgument, problem.what());
    }
}

}  // namespace fusescope::model

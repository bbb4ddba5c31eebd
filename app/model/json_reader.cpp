#include "model/json_reader.h"

#include <QJsonDocument>
#include <QObject>

#include <QJsonValue>
#include <cmath>
#include <limits>

#include "model/json_shape.h"

namespace fusescope::model {
namespace {

// Characters that reorder or hide the text around them (bidirectional embeddings, overrides and
// isolates, the marks) and, in names, every control character: a file's text is drawn and
// printed as it reads, never as terminal escapes or reversed runs. Free text keeps its line
// breaks and tabs.
std::optional<qsizetype> unprintableAt(const QString& text, bool freeText) {
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char16_t c = text.at(i).unicode();
        const bool bidi = c == 0x061c || c == 0x200e || c == 0x200f ||
                          (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
        const bool control = c < 0x20 || (c >= 0x7f && c <= 0x9f);
        const bool allowedInFreeText = c == u'\n' || c == u'\t';
        if (bidi || (control && !(freeText && allowedInFreeText))) return i;
    }
    return std::nullopt;
}

QString typeName(const QJsonValue& value) {
    struct TypeWords {
        QJsonValue::Type type;
        const char* words;
    };
    static constexpr TypeWords kTypeWords[] = {
        {QJsonValue::Null, "null"},       {QJsonValue::Bool, "a boolean"},
        {QJsonValue::Double, "a number"}, {QJsonValue::String, "a string"},
        {QJsonValue::Array, "an array"},  {QJsonValue::Object, "an object"},
    };
    for (const TypeWords& entry : kTypeWords)
        if (entry.type == value.type()) return QLatin1String(entry.words);
    return QStringLiteral("nothing");
}

QString expected(const char* what, const QJsonValue& found) {
    return QStringLiteral("expected %1, found %2").arg(QLatin1String(what), typeName(found));
}

}  // namespace

QString JsonReader::pathOf(const char* key) const {
    return path_.isEmpty() ? QString::fromLatin1(key) : path_ + '.' + QLatin1String(key);
}

void JsonReader::fail(const char* key, const QString& problem) const {
    throw JsonFieldError(pathOf(key) + QStringLiteral(": ") + problem);
}

QJsonValue JsonReader::required(const char* key) const {
    const QJsonValue value = object_.value(QLatin1String(key));
    if (value.isUndefined()) fail(key, QStringLiteral("missing"));
    return value;
}

std::optional<QJsonValue> JsonReader::present(const char* key) const {
    const QJsonValue value = object_.value(QLatin1String(key));
    if (value.isUndefined() || value.isNull()) return std::nullopt;
    return value;
}

qint64 JsonReader::toInteger(const QJsonValue& value, const char* key, qint64 lowest,
                             qint64 highest) const {
    if (!value.isDouble()) fail(key, expected("an integer", value));
    const double asDouble = value.toDouble();
    if (!std::isfinite(asDouble) || std::floor(asDouble) != asDouble)
        fail(key, QStringLiteral("expected an integer, found %1").arg(asDouble));
    const auto outOfRange = [&](const QString& shown) {
        fail(key, QStringLiteral("%1 is outside [%2, %3]%4")
                      .arg(shown)
                      .arg(lowest)
                      .arg(highest)
                      .arg(highest == kLargestExactJsonInteger
                               ? QStringLiteral(" (JSON numbers hold integers exactly to 2^53)")
                               : QString()));
    };
    if (asDouble < static_cast<double>(lowest) || asDouble > static_cast<double>(highest))
        outOfRange(QString::number(asDouble, 'g', 17));
    // Qt keeps integers written without a fraction exactly; fall back to the double otherwise.
    const qint64 exact = value.toInteger(static_cast<qint64>(asDouble));
    if (exact < lowest || exact > highest) outOfRange(QString::number(exact));
    return exact;
}

QString JsonReader::string(const char* key, qsizetype maxLength) const {
    const QJsonValue value = required(key);
    if (!value.isString()) fail(key, expected("a string", value));
    QString text = value.toString();
    if (text.size() > maxLength)
        fail(key, QStringLiteral("%1 characters long, more than the limit of %2 for this text")
                      .arg(text.size())
                      .arg(maxLength));
    if (const std::optional<qsizetype> at = unprintableAt(text, maxLength > kMaxNameLength))
        fail(key, QStringLiteral("holds the control character U+%1 at character %2: names are "
                                 "one line of printable text, and no text may reorder itself")
                      .arg(text.at(*at).unicode(), 4, 16, QLatin1Char('0'))
                      .arg(*at + 1));
    return text;
}

double JsonReader::number(const char* key) const {
    const QJsonValue value = required(key);
    if (!value.isDouble()) fail(key, expected("a number", value));
    const double number = value.toDouble();
    if (!std::isfinite(number)) fail(key, QStringLiteral("%1 is not a finite number").arg(number));
    return number;
}

double JsonReader::checkRange(const char* key, double value, double lowest, double highest) const {
    if (!(value >= lowest && value <= highest))
        fail(key, QStringLiteral("%1 is outside [%2, %3]")
                      .arg(value, 0, 'g', 17)
                      .arg(lowest, 0, 'g')
                      .arg(highest, 0, 'g'));
    return value;
}

double JsonReader::numberIn(const char* key, double lowest, double highest) const {
    return checkRange(key, number(key), lowest, highest);
}

std::optional<double> JsonReader::optionalNumberIn(const char* key, double lowest,
                                                   double highest) const {
    if (!present(key)) return std::nullopt;
    return numberIn(key, lowest, highest);
}

QStringList JsonReader::keys() const {
    QStringList names = object_.keys();
    for (const QString& name : names)
        if (name.size() > kMaxNameLength)
            throw JsonFieldError(
                (path_.isEmpty() ? QStringLiteral("a key") : path_ + QStringLiteral(": a key")) +
                QStringLiteral(" is %1 characters long, more than the limit of %2")
                    .arg(name.size())
                    .arg(kMaxNameLength));
    return names;
}

int JsonReader::integer(const char* key) const {
    return static_cast<int>(toInteger(required(key), key, std::numeric_limits<int>::min(),
                                      std::numeric_limits<int>::max()));
}

quint64 JsonReader::count(const char* key) const {
    return static_cast<quint64>(toInteger(required(key), key, 0, kLargestExactJsonInteger));
}

qint64 JsonReader::signedCount(const char* key) const {
    return toInteger(required(key), key, -kLargestExactJsonInteger, kLargestExactJsonInteger);
}

bool JsonReader::boolean(const char* key) const {
    const QJsonValue value = required(key);
    if (!value.isBool()) fail(key, expected("true or false", value));
    return value.toBool();
}

std::size_t JsonReader::wordIndex(const char* key, std::initializer_list<const char*> words) const {
    const QString found = string(key);
    QStringList quoted;
    for (const char* word : words) {
        if (found == QLatin1String(word)) return static_cast<std::size_t>(quoted.size());
        quoted << QStringLiteral("\"%1\"").arg(QLatin1String(word));
    }
    fail(key, QStringLiteral("expected %1, found \"%2\"")
                  .arg(quoted.join(QStringLiteral(" or ")), found));
}

QJsonArray JsonReader::array(const char* key) const {
    const QJsonValue value = required(key);
    if (!value.isArray()) fail(key, expected("an array", value));
    return value.toArray();
}

QJsonArray JsonReader::boundedArray(const char* key, qsizetype limit) const {
    const QJsonArray values = array(key);
    if (values.size() > limit)
        fail(
            key,
            QStringLiteral("%1 elements, more than the limit of %2").arg(values.size()).arg(limit));
    return values;
}

JsonReader JsonReader::object(const char* key) const {
    const QJsonValue value = required(key);
    if (!value.isObject()) fail(key, expected("an object", value));
    return JsonReader(value.toObject(), pathOf(key));
}

std::optional<QString> JsonReader::optionalString(const char* key, qsizetype maxLength) const {
    if (!present(key)) return std::nullopt;
    return string(key, maxLength);
}

std::optional<bool> JsonReader::optionalBoolean(const char* key) const {
    if (!present(key)) return std::nullopt;
    return boolean(key);
}

std::optional<double> JsonReader::optionalNumber(const char* key) const {
    if (!present(key)) return std::nullopt;
    return number(key);
}

std::optional<int> JsonReader::optionalInteger(const char* key) const {
    if (!present(key)) return std::nullopt;
    return integer(key);
}

std::optional<quint64> JsonReader::optionalCount(const char* key) const {
    if (!present(key)) return std::nullopt;
    return count(key);
}

std::optional<qint64> JsonReader::optionalSignedCount(const char* key) const {
    if (!present(key)) return std::nullopt;
    return signedCount(key);
}

std::optional<QJsonArray> JsonReader::optionalArray(const char* key) const {
    if (!present(key)) return std::nullopt;
    return array(key);
}

std::optional<JsonReader> JsonReader::optionalObject(const char* key) const {
    if (!present(key)) return std::nullopt;
    return object(key);
}

JsonReader JsonReader::element(const QJsonArray& array, const char* key, qsizetype index) const {
    const QString path = pathOf(key) + QStringLiteral("[%1]").arg(index);
    const QJsonValue value = array.at(index);
    if (!value.isObject())
        throw JsonFieldError(path + QStringLiteral(": ") + expected("an object", value));
    return JsonReader(value.toObject(), path);
}

Status parseJsonObject(const QByteArray& json, const char* notAnObject, QJsonObject& object) {
    if (Status shape = checkJsonShape(json); !shape) return shape;
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError)
        return Status(ErrorCode::InvalidArgument, QObject::tr("not valid JSON at byte %1: %2")
                                                      .arg(error.offset)
                                                      .arg(error.errorString())
                                                      .toStdString());
    if (!document.isObject()) return Status(ErrorCode::InvalidArgument, notAnObject);
    object = document.object();
    return Status::ok();
}

}  // namespace fusescope::model

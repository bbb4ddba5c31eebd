#pragma once
// Error values for library code: the kernels layer reports, it never exits.
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace fusescope {

enum class ErrorCode {
    None,
    InvalidArgument,
    OutOfMemory,
    DeviceUnavailable,
    DeviceError,
    Cancelled,
    IoError
};

class Status {
  public:
    Status() = default;
    Status(ErrorCode code, std::string message) : code_(code), message_(std::move(message)) {}
    static Status ok() { return {}; }

    bool isOk() const { return code_ == ErrorCode::None; }
    explicit operator bool() const { return isOk(); }
    ErrorCode code() const { return code_; }
    const std::string& message() const { return message_; }

  private:
    ErrorCode code_ = ErrorCode::None;
    std::string message_;
};

// A value or the Status that explains why there is none.
template <typename T>
class Result {
  public:
    Result(T value) : state_(std::move(value)) {}
    Result(Status error) : state_(std::move(error)) {}

    bool isOk() const { return std::holds_alternative<T>(state_); }
    explicit operator bool() const { return isOk(); }
    T& value() { return std::get<T>(state_); }
    const T& value() const { return std::get<T>(state_); }
    T& operator*() { return value(); }
    const T& operator*() const { return value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    Status status() const { return isOk() ? Status::ok() : std::get<Status>(state_); }

  private:
    std::variant<T, Status> state_;
};

}  // namespace fusescope

#pragma once
// A backend that hands the calls every backend must answer to another one: a test's stand-in
// derives from it and overrides only what its test is about (a GPU's health, chains that overlap,
// an Activity API). The calls with a default (copy, timeChain, compileRequests, choose,
// useHostThreads, settle, health, ...) keep Backend's default unless the stand-in forwards them
// too.
#include <memory>
#include <utility>

#include "runtime/backend.h"

namespace fusescope::testing_support {

class ForwardingBackend : public Backend {
  public:
    explicit ForwardingBackend(std::unique_ptr<Backend> inner) : inner_(std::move(inner)) {}

    BackendKind kind() const override { return inner_->kind(); }
    DeviceInfo describe() const override { return inner_->describe(); }
    Result<void*> allocate(std::uint64_t bytes) override { return inner_->allocate(bytes); }
    Status release(void* pointer) override { return inner_->release(pointer); }
    Status upload(void* device, const void* host, std::uint64_t bytes) override {
        return inner_->upload(device, host, bytes);
    }
    Status download(void* host, const void* device, std::uint64_t bytes) override {
        return inner_->download(host, device, bytes);
    }
    Status fill(void* device, unsigned char byte, std::uint64_t bytes) override {
        return inner_->fill(device, byte, bytes);
    }
    Result<std::vector<double>> timeLaunches(std::span<const KernelLaunch> launches,
                                             TimedStart start) override {
        return inner_->timeLaunches(launches, start);
    }
    Result<double> timeCopy(void* destination, const void* source, std::uint64_t bytes) override {
        return inner_->timeCopy(destination, source, bytes);
    }
    Result<KernelExecution*> findExecution(std::string_view key) override {
        return inner_->findExecution(key);
    }
    KernelResources resources(const KernelLaunch& launch) override {
        return inner_->resources(launch);
    }
    Status supports(const KernelLaunch& launch) override { return inner_->supports(launch); }

  protected:
    Backend& inner() { return *inner_; }
    const Backend& inner() const { return *inner_; }

  private:
    std::unique_ptr<Backend> inner_;
};

}  // namespace fusescope::testing_support

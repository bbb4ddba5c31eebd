#include "measure/timeline.h"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>

namespace fusescope {

std::string readableKernelName(const std::string& name) {
    std::string text = name;
    int status = 0;
    if (char* demangled = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status)) {
        if (status == 0) text = demangled;
        std::free(demangled);
    }
    for (const std::string noise : {"(anonymous namespace)::", "void "}) {
        for (auto at = text.find(noise); at != std::string::npos; at = text.find(noise))
            text.erase(at, noise.size());
    }
    // Cut the parameter list and the qualifiers: track template depth to find them.
    int depth = 0;
    std::size_t nameStart = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '<') ++depth;
        if (c == '>') --depth;
        if (depth != 0) continue;
        if (c == '(') return text.substr(nameStart, i - nameStart);
        if (c == ':' && i + 1 < text.size() && text[i + 1] == ':') nameStart = i + 2;
    }
    return text.substr(nameStart);
}

std::string TimelineBuilder::nameOf(std::uint64_t address) const {
    const auto found = names_.find(address);
    return found != names_.end() ? found->second : "device allocation";
}

std::vector<TimelineSpan> TimelineBuilder::add(const std::vector<ActivityRecord>& records) {
    std::vector<TimelineSpan> completed;
    for (const ActivityRecord& record : records) {
        switch (record.kind) {
            case ActivityRecord::Kind::Kernel: {
                TimelineSpan span;
                span.kind = TimelineSpan::Kind::Kernel;
                span.name = readableKernelName(record.name);
                span.startNs = rebase(record.startNs);
                span.endNs = rebase(record.endNs);
                completed.push_back(std::move(span));
                break;
            }
            case ActivityRecord::Kind::Allocate:
                open_[record.address] = {record.startNs, record.bytes};
                break;
            case ActivityRecord::Kind::Free: {
                const auto found = open_.find(record.address);
                if (found == open_.end()) break;  // allocated before the session began
                TimelineSpan span;
                span.kind = TimelineSpan::Kind::Allocation;
                span.name = nameOf(record.address);
                span.startNs = rebase(found->second.startNs);
                span.endNs = rebase(record.startNs);
                span.bytes = found->second.bytes;
                completed.push_back(std::move(span));
                open_.erase(found);
                break;
            }
        }
    }
    return completed;
}

std::vector<TimelineSpan> TimelineBuilder::finish(std::int64_t sessionEndNs) {
    std::vector<TimelineSpan> spans;
    for (const auto& [address, allocation] : open_) {
        TimelineSpan span;
        span.kind = TimelineSpan::Kind::Allocation;
        span.name = nameOf(address);
        span.startNs = rebase(allocation.startNs);
        span.endNs = rebase(std::max(sessionEndNs, allocation.startNs));
        span.bytes = allocation.bytes;
        spans.push_back(std::move(span));
    }
    open_.clear();
    return spans;
}

BandwidthSample TimelineBuilder::rebase(const BandwidthSample& sample) const {
    BandwidthSample out = sample;
    out.startNs = rebase(sample.startNs);
    out.endNs = rebase(sample.endNs);
    return out;
}

SpanTraffic integrateSamples(const std::vector<BandwidthSample>& samples, std::int64_t startNs,
                             std::int64_t endNs) {
    SpanTraffic traffic;
    for (const BandwidthSample& sample : samples) {
        if (sample.endNs <= sample.startNs) continue;
        const std::int64_t from = std::max(sample.startNs, startNs);
        const std::int64_t to = std::min(sample.endNs, endNs);
        if (to <= from) continue;
        const double fraction =
            static_cast<double>(to - from) / static_cast<double>(sample.endNs - sample.startNs);
        traffic.bytesRead += sample.dramBytesRead() * fraction;
        traffic.bytesWritten += sample.dramBytesWritten() * fraction;
    }
    return traffic;
}

std::uint64_t peakAllocatedBytes(const std::vector<TimelineSpan>& spans) {
    // +bytes at each start, -bytes at each end; a free at the same instant as an allocation
    // comes first (the memory was available again).
    std::vector<std::pair<std::int64_t, std::int64_t>> steps;
    for (const TimelineSpan& span : spans) {
        if (span.kind != TimelineSpan::Kind::Allocation) continue;
        steps.emplace_back(span.startNs, static_cast<std::int64_t>(span.bytes));
        steps.emplace_back(span.endNs, -static_cast<std::int64_t>(span.bytes));
    }
    std::sort(steps.begin(), steps.end());
    std::int64_t inFlight = 0;
    std::int64_t peak = 0;
    for (const auto& [time, delta] : steps) {
        inFlight += delta;
        peak = std::max(peak, inFlight);
    }
    return static_cast<std::uint64_t>(peak);
}

std::vector<TimelineSpan> spansOfKind(const std::vector<TimelineSpan>& spans,
                                      TimelineSpan::Kind kind) {
    std::vector<TimelineSpan> selected;
    for (const TimelineSpan& span : spans)
        if (span.kind == kind) selected.push_back(span);
    std::stable_sort(
        selected.begin(), selected.end(),
        [](const TimelineSpan& a, const TimelineSpan& b) { return a.startNs < b.startNs; });
    return selected;
}

}  // namespace fusescope

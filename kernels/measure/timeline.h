#pragma once
// Turns Activity records and PM samples into the run's timeline (one clock, ns since the
// sampling session began) and answers questions about it: bytes moved over a span, peak bytes
// allocated at once.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "measure/counter_provider.h"

namespace fusescope {

// "swigluFused<4>" from a mangled or demangled kernel name as CUPTI reports it: no return type,
// namespaces or parameters. Names that do not demangle come back unchanged.
std::string readableKernelName(const std::string& name);

// Pairs allocations with their frees (by address) and rebases everything to `originNs`.
// Allocations never freed end at `sessionEndNs`. `bufferNames` names known addresses.
class TimelineBuilder {
  public:
    explicit TimelineBuilder(std::int64_t originNs) : origin_(originNs) {}

    void nameBuffer(std::uint64_t address, std::string name) { names_[address] = std::move(name); }
    // Adds records; returns the spans they complete (kernels, allocations with their free).
    std::vector<TimelineSpan> add(const std::vector<ActivityRecord>& records);
    // Allocations still open become spans ending at sessionEndNs (absolute clock).
    std::vector<TimelineSpan> finish(std::int64_t sessionEndNs);
    BandwidthSample rebase(const BandwidthSample& sample) const;
    std::int64_t rebase(std::int64_t absoluteNs) const { return absoluteNs - origin_; }

  private:
    struct OpenAllocation {
        std::int64_t startNs = 0;
        std::uint64_t bytes = 0;
    };
    std::string nameOf(std::uint64_t address) const;

    std::int64_t origin_ = 0;
    std::map<std::uint64_t, std::string> names_;
    std::map<std::uint64_t, OpenAllocation> open_;
};

struct SpanTraffic {
    double bytesRead = 0.0;
    double bytesWritten = 0.0;
};

// DRAM bytes the samples moved inside [startNs, endNs): each sample counts with the fraction of
// its interval that overlaps (PM samples are tiny next to the kernels they cover).
SpanTraffic integrateSamples(const std::vector<BandwidthSample>& samples, std::int64_t startNs,
                             std::int64_t endNs);

// Most bytes allocated at once over the allocation spans.
std::uint64_t peakAllocatedBytes(const std::vector<TimelineSpan>& spans);

// Spans of one kind, in start order.
std::vector<TimelineSpan> spansOfKind(const std::vector<TimelineSpan>& spans,
                                      TimelineSpan::Kind kind);

}  // namespace fusescope

#pragma once
// The benchmarks' command lines: "--key value" pairs, and the usage line for a bad one.
#include <cstdio>
#include <functional>
#include <string>

namespace fusescope::benchmarks {

// Hands each "--key value" pair to `take`; false at a key it refuses or a key without its value.
inline bool readKeyValues(
    int argc, char** argv,
    const std::function<bool(const std::string& key, const char* value)>& take) {
    for (int i = 1; i + 1 < argc; i += 2)
        if (!take(argv[i], argv[i + 1])) return false;
    return argc % 2 == 1;
}

// How to call the benchmark, on stderr; returns the exit code of a bad command line.
inline int usageError(const char* usage) {
    std::fprintf(stderr, "usage: %s\n", usage);
    return 2;
}

}  // namespace fusescope::benchmarks

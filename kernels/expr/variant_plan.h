#pragma once
// How a chain is cut into kernels, and which full arrays each kernel reads and writes:
//   unfused: one kernel per operation, every value another operation reads a full array
//            (as an eager framework runs it);
//   fused:   one kernel, every value in registers;
//   split:   the learner's kernels (statements between "|"), values crossing from one kernel to
//            a later one as full arrays.
// The ledger, the CUDA generator and the CPU execution all work from this plan.
#include <string>
#include <string_view>
#include <vector>

#include "expr/expression.h"

namespace fusescope::expr {

enum class Strategy { Unfused, Fused, Split };

// The variant's name in the registry, the CLI and recordings: "unfused", "fused", "split".
std::string_view strategyName(Strategy strategy);

enum class ArrayRole { Input, Intermediate, Output };

struct PlanArray {
    std::string name;
    ArrayRole role = ArrayRole::Input;
    int input = -1;      // Input: the program's input index
    int operation = -1;  // Intermediate, Output: the operation whose value it holds
};

struct PlanWrite {
    int array = 0;
    int operation = 0;
};

struct PlanKernel {
    std::string name;               // a C identifier, unique in the variant: "k2_mul", "fused"
    std::vector<int> operations;    // evaluated in this order
    std::vector<int> reads;         // arrays loaded, each once, in order of first use
    std::vector<PlanWrite> writes;  // arrays stored
};

struct VariantPlan {
    Strategy strategy = Strategy::Fused;
    // Inputs, then intermediates, then outputs.
    std::vector<PlanArray> arrays;
    std::vector<PlanKernel> kernels;

    // The array holding input `input`; the array a later kernel reads an operation's value from
    // (-1 where the value never leaves its kernel's registers).
    int arrayOfInput(int input) const;
    int homeOf(int operation) const;
    // The kernel that computes an operation.
    int kernelOf(int operation) const;
};

VariantPlan planVariant(const Program& program, Strategy strategy);

// The strategies a chain offers: unfused and fused, and split where its text has a "|".
std::vector<Strategy> strategiesOf(const Program& program);

}  // namespace fusescope::expr

#pragma once
// An element program (pipeline_description.h) made ready to evaluate: names resolved to inputs
// and earlier results, operators checked, the trees flattened so that one element is evaluated
// without allocating. The reference of a described pipeline's check.
#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"
#include "pipelines/element_operations.h"
#include "pipelines/pipeline_description.h"

namespace fusescope {

// Longest program accepted: nodes over all assignments.
inline constexpr std::size_t kMaxElementProgramNodes = 4096;
// Deepest expression tree accepted (it is flattened recursively).
inline constexpr int kMaxElementExpressionDepth = 256;

class EvaluableProgram {
  public:
    // The value of assignment `result` at element i, in double, from `inputs` (in the order
    // given to compileElementProgram). Safe to call from several threads at once.
    double evaluate(const float* const* inputs, std::uint64_t i) const;

    // One node of the flattened program.
    struct Node {
        enum class Kind {
            Constant,
            Input,
            Assigned,  // an earlier assignment: a copy of its node's value
            Operation
        };
        Kind kind = Kind::Constant;
        ElementOp op = ElementOp::Add;  // Kind::Operation
        double value = 0.0;             // constants
        int input = -1;                 // input references
        int first = -1;                 // the nodes of the arguments (earlier in `nodes_`)
        int second = -1;
    };

  private:
    friend Result<EvaluableProgram> compileElementProgram(const ElementProgram&,
                                                          const std::vector<std::string>&,
                                                          const std::string&);
    std::vector<Node> nodes_;  // post-order: the last node is the result
};

// Refuses unknown operators, a wrong number of arguments, names that are neither an input nor an
// earlier assignment, assignments that reuse a name, a missing `result` assignment, and programs
// over kMaxElementProgramNodes nodes, naming what is wrong.
Result<EvaluableProgram> compileElementProgram(const ElementProgram& program,
                                               const std::vector<std::string>& inputs,
                                               const std::string& result);

// The operators an element program may use (element_operations.h, "const" and "ref"), and their
// number of arguments (0 for "const" and "ref"); -1 for any other name.
int elementOperatorArity(std::string_view op);

}  // namespace fusescope

#pragma once
// A learner's kernel as the Lab view edits it and `fusescope-cli run --kernel-file` runs it: one
// .cu file whose header comment declares what the source alone cannot say. The header is
//
//   // fusescope-kernel 1
//   // entry: swiglu_lab
//   // reference: swiglu
//   // buffer: input gate
//   // buffer: scratch scratch
//   // buffer: output out
//   // pass: read gate
//   // end
//
// `entry` is the __global__ function (extern "C"); its parameters are the buffers in declared
// order (float*, N elements each), then `int N`. `reference` names the pipeline whose reference
// checks the output. Passes are the whole-array sweeps the learner declares, in program order;
// they are what the pass counter shows when no counters were measured, never assumed.
//
// A blank kernel has an expression (kernels/expr, one line) in place of the reference line:
//
//   // expression: out = x * 2 + 3
//
// The expression is registered as a pipeline of its own when the kernel runs; its generated
// unfused and fused variants stand beside the kernel, and its CPU evaluation checks the output.
// Its inputs are the kernel's inputs and its last output the kernel's output
// (buffersOfExpression). A header has a reference or an expression, never both.
#include <QString>
#include <QStringList>
#include <QVector>
#include <cstdint>

#include "core/status.h"
#include "pipelines/registry.h"

namespace fusescope::model {

// A learner's buffer plays the roles a pipeline's buffers play.
using LearnerBufferRole = BufferRole;

struct LearnerBuffer {
    QString name;
    LearnerBufferRole role = LearnerBufferRole::Input;
    bool operator==(const LearnerBuffer&) const = default;
};

struct LearnerPass {
    bool write = false;  // a sweep that writes the buffer, else one that reads it
    QString buffer;
    bool operator==(const LearnerPass&) const = default;
};

struct LearnerKernel {
    QString entry;
    QString reference;   // a pipeline's name, or empty where `expression` is set
    QString expression;  // a blank kernel's reference, as an expression
    QVector<LearnerBuffer> buffers;
    QVector<LearnerPass> passes;
    QString source;  // the code after the header
    bool operator==(const LearnerKernel&) const = default;

    // Bytes of every declared buffer, all alive at once (float32, N elements each): the peak
    // in flight the declaration asks for.
    std::uint64_t peakBytes(std::uint64_t n) const;
    int passCount() const { return static_cast<int>(passes.size()); }
    // Lines of the written header: the source's line 1 is the file's line headerLines() + 1.
    int headerLines() const { return 4 + static_cast<int>(buffers.size() + passes.size()); }
};

QString roleName(LearnerBufferRole role);

// The buffers a blank kernel has for an expression: its inputs, then its last output (the one
// checked); an earlier output is scratch the kernel may write. Passes: each input read, the
// output written, in that order (one fused sweep, which the learner edits to their loops).
// The error is the parser's, pointing at the character.
Result<LearnerKernel> blankKernelFor(const QString& expression, const QString& entry);

// The kernel of a .cu file's text, or "line K: what is wrong" for a malformed header.
Result<LearnerKernel> parseLearnerKernel(const QString& text);
// The .cu text: the header, then the source. parseLearnerKernel(writeLearnerKernel(k)) == k.
QString writeLearnerKernel(const LearnerKernel& kernel);

// Reads or saves (atomically, checked) a kernel file; errors name the file.
Result<LearnerKernel> loadLearnerKernel(const QString& path);
Status saveLearnerKernel(const LearnerKernel& kernel, const QString& path);

}  // namespace fusescope::model

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
#include <QString>
#include <QStringList>
#include <QVector>
#include <cstdint>

#include "core/status.h"

namespace fusescope::model {

enum class LearnerBufferRole { Input, Output, Scratch };

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
    QString reference;
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

// The kernel of a .cu file's text, or "line K: what is wrong" for a malformed header.
Result<LearnerKernel> parseLearnerKernel(const QString& text);
// The .cu text: the header, then the source. parseLearnerKernel(writeLearnerKernel(k)) == k.
QString writeLearnerKernel(const LearnerKernel& kernel);

// Reads or saves (atomically, checked) a kernel file; errors name the file.
Result<LearnerKernel> loadLearnerKernel(const QString& path);
Status saveLearnerKernel(const LearnerKernel& kernel, const QString& path);

}  // namespace fusescope::model

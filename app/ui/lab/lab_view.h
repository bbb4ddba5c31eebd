#pragma once
// The Lab: the learner edits a kernel (starters: the lab's SwiGLU with a scratch buffer, the
// MLP's elementwise part, the lesson's affine chain, a blank kernel whose reference is an
// expression the learner types), declares its buffers and passes, builds it with NVRTC (Ctrl+B) and
// runs it on the GPU beside the shipped variants. Build and Run happen in a child process
// (`fusescope-cli run --kernel-file`), so a kernel that crashes, hangs or an endless compile
// costs the window nothing; the run's recording opens in every view.
#include <QTemporaryDir>
#include <QWidget>

#include "model/lab/compile_messages.h"
#include "model/lab/learner_kernel.h"
#include "ui/lab/lab_process.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;

namespace fusescope {

class LabBuffers;
class LabEditor;

class LabView : public QWidget {
    Q_OBJECT
  public:
    explicit LabView(QWidget* parent = nullptr);

    // Whether this machine can run a kernel; without a GPU the view says so and offers to open
    // a recording made with --kernel-file elsewhere. Build works either way.
    void setGpu(bool usable, const QString& reason);
    void loadStarter(int index);
    // The kernel as shown: the declarations beside the editor and its text.
    Result<model::LearnerKernel> currentKernel() const;
    // Empty on success, else the error in words.
    QString openKernel(const QString& path);
    QString saveKernel(const QString& path);
    void build();
    void run();
    void cancel();
    bool busy() const;
    // How long a build (the compiler) or a run may take before its process is stopped.
    void setTimeLimits(int buildMs, int runMs);
    // A blank kernel's expression: its buffers and passes follow it. Empty on success, else the
    // parser's error (at its character).
    QString setExpression(const QString& text);
    // The problem size a run takes (N, a power of two among the sizes offered). Empty on
    // success, else why the size was left as it was.
    QString setElementCount(quint64 n);
    quint64 elementCount() const;

    LabEditor* editor() const { return editor_; }
    LabBuffers* buffers() const { return buffers_; }
    QListWidget* messageList() const { return messages_; }
    QComboBox* starterCombo() const { return starters_; }
    QLabel* statusLabel() const { return status_; }
    QLabel* gpuNote() const { return gpuNote_; }
    QPushButton* runButton() const { return runButton_; }
    QLineEdit* expressionEdit() const { return expression_; }
    QCheckBox* countersBox() const { return counters_; }

  signals:
    void recordingReady(const QString& path);  // a run's recording, for the window to open
    void openRecordingRequested();             // a recording made elsewhere
    void buildFinished(bool ok);
    void runFinished(bool ok, const QString& message);

  private:
    enum class Job { None, Build, Run };
    QString writeWorkFile();
    void finish(const LabOutcome& outcome);
    void finishBuild(const LabOutcome& outcome);
    void finishRun(const LabOutcome& outcome);
    // The compiler's messages (file lines) in the list and on the editor's lines; true if any.
    bool showCompileMessages(const QString& log);
    void setStatus(const QString& text);
    void followBusy();
    void showKernel(const model::LearnerKernel& kernel);

    model::LearnerKernel base_;  // entry and reference of the kernel shown
    LabEditor* editor_ = nullptr;
    LabBuffers* buffers_ = nullptr;
    QListWidget* messages_ = nullptr;
    QComboBox* starters_ = nullptr;
    QComboBox* size_ = nullptr;
    QCheckBox* counters_ = nullptr;
    QLineEdit* expression_ = nullptr;
    QWidget* expressionRow_ = nullptr;
    QLabel* status_ = nullptr;
    QLabel* gpuNote_ = nullptr;
    QPushButton* buildButton_ = nullptr;
    QPushButton* runButton_ = nullptr;
    QPushButton* cancelButton_ = nullptr;
    QPushButton* openRecordingButton_ = nullptr;
    LabProcess process_;
    QTemporaryDir work_;
    Job job_ = Job::None;
    int runs_ = 0;
    bool gpuUsable_ = false;
    int buildMs_ = 60'000;
    int runMs_ = 300'000;
};

}  // namespace fusescope

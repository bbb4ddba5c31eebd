#pragma once
// The left side of the window: what to run (pipeline, variants, N, vector width, backend,
// repeats), Run and Cancel, and the progress of the run. Filled from the pipeline registry.
#include <QElapsedTimer>
#include <QWidget>

#include "model/pipeline_catalog.h"
#include "model/run_limits.h"
#include "worker/run_command.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QFormLayout;
class QListWidget;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace fusescope {

class RunPanel final : public QWidget {
    Q_OBJECT
  public:
    explicit RunPanel(QWidget* parent = nullptr);

    // What the panel would run now (N is 0 while its text is not a valid count).
    RunCommand command() const;
    // Shows a command's choices; unknown pipelines, variants and widths leave the fields as
    // they are, and no variants means all stay as they are.
    void setCommand(const RunCommand& command);
    // Empty message when the command can run; otherwise what is wrong, in words.
    QString validationMessage() const;

    void setBackendSummary(const BackendSummary& summary);
    // The GPU to remember between sessions: the picker's, or, while the GPU chosen last time is
    // not present (another host, CUDA_VISIBLE_DEVICES), that one, so it is not forgotten.
    std::optional<int> rememberedDevice() const;
    // The words under the backend: the GPU that runs, or why none does, and what became of a
    // remembered GPU that is not present.
    QString backendNote() const;
    // The backend a run would use now: Auto means CUDA where it is usable.
    BackendKind resolvedBackend() const;
    void setRunning(bool running);
    // The worker is busy with a job the panel did not start (a size or tile sweep), named in
    // `job`: Run waits (disabled, the job named in its tooltip), Cancel stops that job. An empty
    // `job` ends it.
    void setBusyElsewhere(const QString& job);
    bool isBusyElsewhere() const { return !busyElsewhere_.isEmpty(); }
    void setProgress(double fraction, const QString& stage);
    void setStatusText(const QString& text);
    // The pipeline list again from the registry (done when a pipeline is registered, replaced
    // or unregistered while the program runs): the chosen pipeline stays chosen while it is
    // listed, and its variants are shown again where it was replaced.
    void refreshPipelines();

    // For tests and the headless path.
    QComboBox* pipelineCombo() const { return pipeline_; }
    QListWidget* variantList() const { return variants_; }
    QLineEdit* elementCountEdit() const { return elementCount_; }
    QComboBox* backendCombo() const { return backend_; }
    QComboBox* deviceCombo() const { return device_; }
    QComboBox* vectorCombo() const { return vector_; }
    QSpinBox* repeatsSpin() const { return repeats_; }
    QSpinBox* warmupSpin() const { return warmup_; }
    QSpinBox* cpuThreadsSpin() const { return cpuThreads_; }
    QPushButton* runButton() const { return run_; }
    QPushButton* cancelButton() const { return cancel_; }

  signals:
    void runRequested();
    void cancelRequested();
    // The fields were fitted to new values or a new font: the panel's least width changed.
    void leastWidthChanged();

  protected:
    void changeEvent(QEvent* event) override;

  private:
    // The registry's pipelines, in its order, as the pipeline box's items.
    void listPipelines();
    void showPipeline(int index);
    // The text fields (N, dimensions, tiles) wide enough for their values, shown from the start.
    void fitFieldsToValues();
    // The formula's fixed-width font, at the panel's text size.
    void fitFormulaFont();
    const PipelineSpec* currentPipeline() const;
    void showProblemFields(const PipelineSpec& pipeline);
    void showProblem(const Problem& problem);
    Result<Problem> currentProblem() const;
    int rowOf(QWidget* field) const;
    BackendChoice currentBackend() const;
    void updateCacheHint();
    // Repeats and warm-up follow the backend's defaults unless the user changed them; the
    // thread count applies to the CPU backend only.
    void backendChanged();
    void updateRunEnabled();

    QComboBox* pipeline_ = nullptr;
    QLabel* formula_ = nullptr;
    QLabel* description_ = nullptr;
    QListWidget* variants_ = nullptr;
    QLineEdit* elementCount_ = nullptr;
    QComboBox* presets_ = nullptr;
    QLabel* cacheHint_ = nullptr;
    QComboBox* vector_ = nullptr;
    QLineEdit* shape_ = nullptr;
    QComboBox* problemPresets_ = nullptr;
    QComboBox* dtype_ = nullptr;
    QLineEdit* tuning_ = nullptr;
    QFormLayout* form_ = nullptr;
    QComboBox* backend_ = nullptr;
    QLabel* backendReason_ = nullptr;
    QComboBox* device_ = nullptr;  // the GPU, where the host has any
    QSpinBox* repeats_ = nullptr;
    QSpinBox* warmup_ = nullptr;
    QSpinBox* cpuThreads_ = nullptr;
    QCheckBox* measure_ = nullptr;
    QSpinBox* sampleInterval_ = nullptr;
    QSpinBox* countedLaunches_ = nullptr;  // how often the counter run counts each launch
    QPushButton* run_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QLabel* stage_ = nullptr;
    QLabel* status_ = nullptr;
    BackendSummary summary_;
    // The GPU a command asked for (the last session's choice) until the worker lists it or the
    // user picks another.
    std::optional<int> wantedDevice_;
    BackendKind defaultsShownFor_ = BackendKind::Cpu;
    QString shownStageKey_;
    QElapsedTimer textShown_;
    bool running_ = false;
    QString busyElsewhere_;
    bool showingValidation_ = false;               // stage_ holds a validation message
    const PipelineSpec* shownPipeline_ = nullptr;  // whose variants the list shows
};

}  // namespace fusescope

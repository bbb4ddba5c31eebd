#include "ui/run/run_panel.h"

#include "ui/run/backend_choice_key.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStandardItemModel>
#include <algorithm>

#include "model/element_count.h"
#include "model/format.h"

// The run panel's backend: the choice, the GPU picker, the defaults and notes that follow them.
namespace fusescope {

BackendKind RunPanel::resolvedBackend() const {
    const BackendChoice choice = currentBackend();
    const bool gpu =
        choice == BackendChoice::Cuda || (choice == BackendChoice::Auto && summary_.cudaUsable);
    return gpu ? BackendKind::Cuda : BackendKind::Cpu;
}

void RunPanel::backendChanged() {
    const BackendKind backend = resolvedBackend();
    const RunSettings shown = runDefaultsFor(defaultsShownFor_);
    if (backend != defaultsShownFor_ && repeats_->value() == shown.repeats &&
        warmup_->value() == shown.warmup) {
        const RunSettings wanted = runDefaultsFor(backend);
        repeats_->setValue(wanted.repeats);
        warmup_->setValue(wanted.warmup);
    }
    defaultsShownFor_ = backend;
    const bool cpu = backend == BackendKind::Cpu;
    form_->setRowVisible(device_, !cpu && device_->count() > 0);
    cpuThreads_->setEnabled(cpu);
    cpuThreads_->setToolTip(
        cpu ? tr("Threads the CPU backend runs on. With one thread, scalar SwiGLU is compute "
                 "bound and the fused kernel's advantage shrinks; with all of them the run is "
                 "memory bound.")
            : tr("Applies to the CPU backend only; this run uses the GPU."));
    // GPU-only choices stay visible but off on the CPU, with the reason where the user looks.
    measure_->setEnabled(!cpu);
    sampleInterval_->setEnabled(!cpu && measure_->isChecked());
    countedLaunches_->setEnabled(!cpu && measure_->isChecked());
    measure_->setToolTip(
        cpu ? tr("Hardware counters and bandwidth over time need an NVIDIA GPU; CPU runs are "
                 "timed and checked only.")
            : tr("On the GPU: after the timed run, a counter run (DRAM bytes per kernel) and a "
                 "sampling run (bandwidth over time). Where the GPU refuses counters, the run "
                 "says why."));
    updateCacheHint();
}

BackendChoice RunPanel::currentBackend() const {
    return backendChoiceFromKey(backend_->currentData().toString().toStdString())
        .value_or(BackendChoice::Auto);
}

void RunPanel::setBackendSummary(const BackendSummary& summary) {
    summary_ = summary;
    // The CUDA entry is disabled, not hidden, so the reason stays next to it.
    auto* items = qobject_cast<QStandardItemModel*>(backend_->model());
    const int cudaIndex = backend_->findData(backendChoiceItemKey(BackendChoice::Cuda));
    if (items && cudaIndex >= 0) items->item(cudaIndex)->setEnabled(summary.cudaUsable);
    if (!summary.cudaUsable && backend_->currentIndex() == cudaIndex)
        backend_->setCurrentIndex(backend_->findData(backendChoiceItemKey(BackendChoice::Auto)));
    QString deviceNote;
    {
        const QSignalBlocker quiet(device_);
        const int chosen = wantedDevice_.value_or(std::max(device_->currentIndex(), 0));
        device_->clear();
        for (int index = 0; index < summary.cudaDevices.size(); ++index)
            device_->addItem(tr("GPU %1: %2").arg(index).arg(summary.cudaDevices[index]));
        const int count = device_->count();
        device_->setCurrentIndex(std::min(chosen, count - 1));
        if (chosen < count) {
            wantedDevice_.reset();
        } else if (wantedDevice_ && (summary.cudaUsable || !summary.cudaReason.isEmpty())) {
            deviceNote = count > 0
                             ? tr("GPU %1, chosen last time, is not present (this host "
                                  "lists %2): GPU 0 runs instead.")
                                   .arg(*wantedDevice_)
                                   .arg(count)
                             : tr("GPU %1, chosen last time, is not present.").arg(*wantedDevice_);
        }
    }
    if (summary.cudaUsable)
        backendReason_->setText(tr("GPU: %1").arg(summary.cudaDeviceName));
    else if (summary.cudaReason.isEmpty())
        backendReason_->setText(tr("Looking for a GPU…"));
    else
        // The reason is said once, on the start page; here what it means, the reason on hover.
        backendReason_->setText(tr("No usable GPU: runs use the CPU backend."));
    if (!deviceNote.isEmpty()) backendReason_->setText(backendReason_->text() + u' ' + deviceNote);
    backendReason_->setToolTip(summary.cudaUsable ? QString() : summary.cudaReason);
    backendChanged();
}

std::optional<int> RunPanel::rememberedDevice() const {
    if (wantedDevice_) return wantedDevice_;
    if (device_->currentIndex() >= 0) return device_->currentIndex();
    return std::nullopt;
}

QString RunPanel::backendNote() const {
    return backendReason_->text();
}

void RunPanel::updateCacheHint() {
    const bool gpu = resolvedBackend() == BackendKind::Cuda;
    const quint64 cacheBytes = gpu ? summary_.cudaL2Bytes : summary_.cpuLastLevelCacheBytes;
    const QString cacheName = gpu ? tr("L2 of the GPU") : tr("CPU last-level cache");
    const std::optional<quint64> n = model::elementCountValue(elementCount_->text());
    if (!n) {
        cacheHint_->setText(tr("Not a valid N: enter a whole number ≥ 1 or 2^k."));
        return;
    }
    // N * 4 overflows 64 bits from N = 2^62: say so instead of showing the wrapped product.
    const std::optional<quint64> arrayBytes = model::bytesForElements(*n, sizeof(float));
    QString hint = arrayBytes ? tr("%1 per array").arg(model::formatBytes(*arrayBytes))
                              : tr("more than 18 EB per array (past 64 bits)");
    if (cacheBytes > 0) {
        const bool fits = arrayBytes && *arrayBytes <= cacheBytes;
        hint += tr(" · %1: %2 (%3)")
                    .arg(cacheName, model::formatBytes(cacheBytes),
                         fits ? tr("arrays fit in it") : tr("arrays exceed it"));
    }
    cacheHint_->setText(hint);
}

}  // namespace fusescope

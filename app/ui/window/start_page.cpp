#include "ui/window/start_page.h"

#include <QCommandLinkButton>
#include <QDir>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

#include "model/recording_description.h"

namespace fusescope {
namespace {

QLabel* wrapped(QWidget* parent) {
    auto* label = new QLabel(parent);
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);  // device names and file names, never HTML
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

QFont scaled(QFont font, double factor, bool bold) {
    if (font.pointSizeF() > 0) font.setPointSizeF(font.pointSizeF() * factor);
    font.setBold(bold);
    return font;
}

// The part of the reason a person can act on; the whole text stays behind Details.
// "no usable NVIDIA GPU: cudaErrorInsufficientDriver (...); this FuseScope uses CUDA 13.0, which
// needs ...; no NVIDIA driver is installed or loaded" reads "no NVIDIA driver is installed or
// loaded" (the headline already says there is no usable GPU).
QString shortReason(QString reason) {
    const QString prefix = QStringLiteral("no usable NVIDIA GPU: ");
    if (reason.startsWith(prefix)) reason = reason.mid(prefix.size());
    const int lastClause = reason.lastIndexOf(QLatin1Char(';'));
    if (lastClause >= 0) return reason.mid(lastClause + 1).trimmed();
    return reason.trimmed();
}

}  // namespace

StartPage::StartPage(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("startPage"));
    auto* content = new QWidget;
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(24, 16, 24, 16);

    headline_ = wrapped(content);
    headline_->setObjectName(QStringLiteral("startHeadline"));
    headline_->setFont(scaled(font(), 1.4, true));
    layout->addWidget(headline_);
    summary_ = wrapped(content);
    summary_->setObjectName(QStringLiteral("startSummary"));
    detailsButton_ = new QToolButton(content);
    detailsButton_->setObjectName(QStringLiteral("startDetailsButton"));
    detailsButton_->setText(tr("Details"));
    detailsButton_->setCheckable(true);
    detailsButton_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    detailsButton_->setArrowType(Qt::RightArrow);
    auto* summaryRow = new QHBoxLayout;
    summaryRow->addWidget(summary_, 1);
    summaryRow->addWidget(detailsButton_, 0, Qt::AlignTop);
    layout->addLayout(summaryRow);
    details_ = wrapped(content);
    details_->setObjectName(QStringLiteral("startDetails"));
    details_->setVisible(false);
    layout->addWidget(details_);
    connect(detailsButton_, &QToolButton::toggled, this, [this](bool shown) {
        details_->setVisible(shown);
        detailsButton_->setArrowType(shown ? Qt::DownArrow : Qt::RightArrow);
    });

    layout->addSpacing(12);
    auto* next = new QLabel(tr("What to do next"), content);
    next->setFont(scaled(font(), 1.15, true));
    layout->addWidget(next);
    auto* buttons = new QHBoxLayout;
    run_ = new QPushButton(content);
    run_->setObjectName(QStringLiteral("startRunButton"));
    open_ = new QPushButton(tr("Open a file…"), content);
    open_->setObjectName(QStringLiteral("startOpenButton"));
    buttons->addWidget(run_);
    buttons->addWidget(open_);
    buttons->addStretch(1);
    layout->addLayout(buttons);
    layout->addSpacing(8);
    recordingsTitle_ = wrapped(content);
    recordingsTitle_->setText(
        tr("Or open a recording that ships with FuseScope: the same tables, charts and "
           "animation as a live run. One click opens it."));
    layout->addWidget(recordingsTitle_);
    recordings_ = new QVBoxLayout;
    recordings_->setSpacing(2);
    layout->addLayout(recordings_);
    noRecordings_ = wrapped(content);
    noRecordings_->setVisible(false);
    layout->addWidget(noRecordings_);
    layout->addStretch(1);
    connect(run_, &QPushButton::clicked, this, &StartPage::runRequested);
    connect(open_, &QPushButton::clicked, this, &StartPage::openFileRequested);

    // Short windows and large text scroll instead of cutting the page.
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);
    setGpuUnknown();
}

void StartPage::setGpuUnknown() {
    headline_->setText(tr("Looking for a GPU…"));
    summary_->setText(tr("Meanwhile, a recording can be opened."));
    detailsButton_->setVisible(false);
    details_->clear();
    run_->setText(tr("Run on the CPU"));
}

void StartPage::setGpu(bool usable, const QString& deviceName, const QString& reason) {
    if (usable) {
        headline_->setText(tr("GPU ready: %1").arg(deviceName));
        summary_->setText(
            tr("Pick a pipeline and its variants on the left and press Run, or "
               "open a recording."));
        detailsButton_->setVisible(false);
        details_->clear();
        run_->setText(tr("Run on the GPU"));
        return;
    }
    headline_->setText(tr("No usable GPU on this machine"));
    summary_->setText(tr("FuseScope cannot run kernels on a GPU here: %1. The CPU backend runs "
                         "the same pipelines for real, and the recordings below were made on a "
                         "GPU.")
                          .arg(shortReason(reason)));
    details_->setText(tr("%1.\n\nHelp > Check this machine… lists what is missing and how to fix "
                         "it.")
                          .arg(reason));
    detailsButton_->setVisible(!reason.isEmpty());
    run_->setText(tr("Run on the CPU"));
}

void StartPage::setCatalog(const model::RecordingCatalog& catalog) {
    qDeleteAll(buttons_);
    buttons_.clear();
    for (const model::CatalogEntry& entry : catalog.entries) {
        if (!entry.error.isEmpty()) continue;  // the self-test reports those
        if (!openable_.contains(entry.kind)) continue;
        auto* button = new QCommandLinkButton(entry.title, entry.description);
        button->setObjectName(QStringLiteral("shippedRecording"));
        button->setToolTip(
            QStringLiteral("%1\n%2").arg(QDir::toNativeSeparators(entry.path),
                                         model::deviceAndDay(entry.deviceName, entry.createdAt)));
        const QString path = entry.path;
        connect(button, &QCommandLinkButton::clicked, this,
                [this, path] { emit openRecordingRequested(path); });
        recordings_->addWidget(button);
        buttons_ << button;
    }
    const bool none = buttons_.isEmpty();
    recordingsTitle_->setVisible(!none);
    noRecordings_->setVisible(none);
    if (catalog.entries.isEmpty())
        noRecordings_->setText(
            tr("No shipped recordings were found (looked in %1). Open a file, or run on the CPU.")
                .arg(QDir::toNativeSeparators(catalog.foldersSearched.join(QStringLiteral(", ")))));
    else
        noRecordings_->setText(tr("No recording in %1 opens in this window yet (the files "
                                  "there are of other kinds; Help > Check this machine… lists "
                                  "them).")
                                   .arg(QDir::toNativeSeparators(catalog.folder)));
}

}  // namespace fusescope

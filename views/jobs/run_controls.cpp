#include "jobs/run_controls.hpp"

#include <QComboBox>
#include <QCoreApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

#include "clusterlens/backend.hpp"

namespace clusterlens::views {

namespace {

QString trRunControls(const char* text) {
    return QCoreApplication::translate("RunControls", text);
}

}  // namespace

QComboBox* newBackendChoice(QWidget* parent) {
    auto* backend = new QComboBox(parent);
    backend->addItem(trRunControls("auto"), static_cast<int>(Backend::Auto));
    backend->addItem(trRunControls("cpu"), static_cast<int>(Backend::Cpu));
    backend->addItem(trRunControls("cuda"), static_cast<int>(Backend::Cuda));
    backend->setToolTip(trRunControls("--backend: auto uses the GPU when a CUDA device is present."));
    return backend;
}

RunControls newRunControls(const QString& runText, QWidget* parent) {
    RunControls controls;
    controls.run = new QPushButton(runText, parent);
    controls.cancel = new QPushButton(trRunControls("Cancel"), parent);
    controls.progress = new QProgressBar(parent);
    controls.progress->setRange(0, 1000);
    controls.progress->setTextVisible(false);
    controls.status = new QLabel(parent);
    controls.status->setWordWrap(true);
    return controls;
}

void addRunControls(QVBoxLayout* layout, const RunControls& controls) {
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(controls.run, 1);
    buttons->addWidget(controls.cancel);
    layout->addLayout(buttons);
    layout->addWidget(controls.progress);
    layout->addWidget(controls.status);
}

}  // namespace clusterlens::views

// Wiring of the VAT/iVAT page: it reads the current dataset and the dataset panel's active features;
// cuts, selection and colouring reach the other views through the analysis session inside the panel.
// How the frames reach the screen (CUDA–OpenGL interop or host upload) is shown in the status bar.

#include <QAction>
#include <QDockWidget>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>

#include "dataset_panel.hpp"
#include "dataset_session.hpp"
#include "dendrogram/dendrogram_panel.hpp"
#include "log_panel.hpp"
#include "main_window.hpp"
#include "vat/vat_panel.hpp"
#include "vat/vat_widget.hpp"

namespace clusterlens::gui {

using namespace clusterlens::views;

void MainWindow::buildVatDock() {
    m_vatPanel = new VatPanel(m_runner, m_analysis, this);
    auto* dock = new QDockWidget(tr("VAT / iVAT"), this);
    dock->setObjectName(QStringLiteral("VatDock"));
    // Its rows of controls are wider than a narrow column: they scroll rather than widen the window.
    dock->setWidget(inScrollArea(m_vatPanel));
    // A tab beside the other views of the right column.
    QDockWidget* neighbour = nullptr;
    for (QDockWidget* other : findChildren<QDockWidget*>())
        if (other != dock && dockWidgetArea(other) == Qt::RightDockWidgetArea && !neighbour) neighbour = other;
    addDockWidget(Qt::RightDockWidgetArea, dock);
    if (neighbour) tabifyDockWidget(neighbour, dock);

    auto* path = new QLabel(this);
    path->setObjectName(QStringLiteral("VatRenderPath"));
    statusBar()->addPermanentWidget(path);
    connect(m_vatPanel, &VatPanel::renderPathChanged, this, [this, path](const QString& text) {
        // The short form in the status bar, the whole line (GL vendor and renderer) as its tooltip and in the log.
        const bool interop = m_vatPanel->widget()->usesInterop();
        path->setText(m_vatPanel->lastRun() ? (interop ? tr("VAT: CUDA\u2013GL interop") : tr("VAT: host upload"))
                                            : QString());
        path->setToolTip(text);
        if (m_vatPanel->lastRun()) m_logPanel->info(text);
    });

    const auto feed = [this] { m_vatPanel->setDataSource(m_session->current(), m_datasetPanel->activeFeatures()); };
    connect(m_session, &DatasetSession::currentChanged, this, feed);
    connect(m_datasetPanel, &DatasetPanel::activeFeaturesChanged, this, feed);
    connect(m_vatPanel, &VatPanel::resultShown, dock, &QDockWidget::raise);
    // The dendrogram's iVAT in tree order takes this run when it covers the tree's events.
    connect(m_vatPanel, &VatPanel::resultShown, m_dendrogramPanel,
            [this] { m_dendrogramPanel->offerVatRun(m_vatPanel->lastRun()); });
    connect(m_vatPanel, &VatPanel::message, this, [this](const QString& text, bool error) {
        if (error)
            m_logPanel->error(text);
        else
            m_logPanel->info(text);
    });
}

void MainWindow::buildVatMenu() {
    auto* menu = new QMenu(tr("V&AT"), this);
    QAction* compute = menu->addAction(tr("&Compute VAT order"), m_vatPanel, &VatPanel::run);
    compute->setShortcut(Qt::CTRL | Qt::SHIFT | Qt::Key_V);
    QAction* ivat = menu->addAction(tr("Show &iVAT"));
    ivat->setCheckable(true);
    ivat->setChecked(m_vatPanel->display().kind == VatImageKind::Ivat);
    connect(ivat, &QAction::toggled, this,
            [this](bool on) { m_vatPanel->setImageKind(on ? VatImageKind::Ivat : VatImageKind::Vat); });
    connect(menu, &QMenu::aboutToShow, this, [this, ivat] {
        const QSignalBlocker block(ivat);
        ivat->setChecked(m_vatPanel->display().kind == VatImageKind::Ivat);
    });
    menu->addAction(tr("&Reset VAT view"), m_vatPanel->widget(), &VatWidget::resetView);
    // The Help menu stays last.
    const QList<QAction*> menus = menuBar()->actions();
    menuBar()->insertMenu(menus.isEmpty() ? nullptr : menus.back(), menu);
}

}  // namespace clusterlens::gui

// The window's default layout and focus mode. Forms share one tabbed column on the left, the views
// one tabbed column on the right (each view gets the column's whole height), jobs and log a tabbed
// strip at the bottom; the data scatter stays in the middle. A column too narrow for its tabs' titles
// side by side (1366x768) has its tabs on its outer edge, their titles running upwards or downwards
// in full. The window starts within the screen (1366x768 included), and a session's or the last
// run's saved layout replaces this default.

#include <QDockWidget>
#include <QGuiApplication>
#include <QMenu>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QTabBar>
#include <QTimer>

#include <algorithm>
#include <span>

#include "dendrogram/dendrogram_panel.hpp"
#include "dendrogram/dendrogram_widget.hpp"
#include "focus_mode.hpp"
#include "main_window.hpp"

namespace clusterlens::gui {

namespace {

// Left: forms, right: views, bottom: jobs and log, each area tabbed in this order.
const char* const kLeftDocks[] = {"DatasetDock", "ClusteringDock", "KMeansDock", "PopulationsDock"};
const char* const kViewDocks[] = {"DendrogramDock",   "DecisionGraphDock",      "VatDock",
                                  "PointHeightsDock", "CompareClusteringsDock", "ChartsDock"};
const char* const kBottomDocks[] = {"JobsDock", "LogDock"};

// The forms' column: a fifth of the window's width within these bounds.
constexpr int kMinLeftWidth = 285;
constexpr int kMaxLeftWidth = 330;
// The views' column: at least what its widest view needs; it grows to half of what the forms leave
// once the scatter keeps kScatterWidth (with kChrome for the columns' edge tabs and separators).
constexpr int kMinRightWidth = 430;
constexpr int kScatterWidth = 600;
constexpr int kChrome = 60;
constexpr int kBottomHeight = 150;
// Narrower windows (1024x768) keep one side column (see applyDefaultLayout).
constexpr int kTwoColumnsMinWidth = 1200;

/// Whether the titles of `docks` fit side by side in a tab bar `width` px wide.
bool tabsFit(const QList<QDockWidget*>& docks, int width) {
    QTabBar probe;
    for (const QDockWidget* dock : docks) probe.addTab(dock->windowTitle());
    return probe.sizeHint().width() <= width;
}

/// The docks of `window` with these object names, in this order (those that exist).
QList<QDockWidget*> docksNamed(const QMainWindow* window, std::span<const char* const> names) {
    QList<QDockWidget*> docks;
    for (const char* name : names)
        if (auto* dock = window->findChild<QDockWidget*>(QString::fromLatin1(name), Qt::FindDirectChildrenOnly))
            docks.append(dock);
    return docks;
}

}  // namespace

void MainWindow::applyDefaultLayout() {
    const auto tabify = [this](Qt::DockWidgetArea area, const QList<QDockWidget*>& docks) {
        for (QDockWidget* dock : docks) {
            addDockWidget(area, dock);
            dock->show();
            if (dock != docks.front()) tabifyDockWidget(docks.front(), dock);
        }
        if (!docks.isEmpty()) docks.front()->raise();
    };
    const QList<QDockWidget*> left = docksNamed(this, kLeftDocks);
    const QList<QDockWidget*> views = docksNamed(this, kViewDocks);
    const QList<QDockWidget*> bottom = docksNamed(this, kBottomDocks);
    // Forms and views run the window's whole height; jobs and log sit under the scatter only.
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    resizeToScreen();
    // Below 1200 px two side columns, each as wide as its widest form or view, would leave the
    // scatter a sliver: the forms then become tabs of the views' column, ahead of the views.
    const bool oneColumn = width() < kTwoColumnsMinWidth;
    tabify(Qt::LeftDockWidgetArea, oneColumn ? QList<QDockWidget*>() : left);
    tabify(Qt::RightDockWidgetArea, oneColumn ? left + views : views);
    tabify(Qt::BottomDockWidgetArea, bottom);
    const int leftWidth = std::clamp(width() / 5, kMinLeftWidth, kMaxLeftWidth);
    const int rightWidth =
        std::max(kMinRightWidth, std::min((width() - leftWidth) / 2, width() - leftWidth - kScatterWidth - kChrome));
    // Tabs under a column while their titles fit there, else on its outer edge: elided titles
    // ("Da\u2026", "Cl\u2026") cannot be told apart.
    setTabPosition(Qt::LeftDockWidgetArea, tabsFit(left, leftWidth) ? QTabWidget::South : QTabWidget::West);
    setTabPosition(Qt::RightDockWidgetArea,
                   tabsFit(oneColumn ? left + views : views, rightWidth) ? QTabWidget::South : QTabWidget::East);
    // Dock sizes hold only once the window is laid out on screen: set them when the event loop
    // runs, unless a layout saved by an earlier run is restored instead.
    if (QSettings().contains(QStringLiteral("window/state"))) return;
    QTimer::singleShot(0, this, [this, left, views, bottom, leftWidth, rightWidth] {
        if (!left.isEmpty() && !views.isEmpty() && dockWidgetArea(left.front()) == Qt::LeftDockWidgetArea)
            resizeDocks({left.front(), views.front()}, {leftWidth, rightWidth}, Qt::Horizontal);
        else if (!views.isEmpty())
            resizeDocks({views.front()}, {rightWidth}, Qt::Horizontal);
        if (!bottom.isEmpty()) resizeDocks({bottom.front()}, {kBottomHeight}, Qt::Vertical);
    });
}

void MainWindow::resizeToScreen() {
    const QScreen* screen = this->screen() ? this->screen() : QGuiApplication::primaryScreen();
    const QSize available = screen ? screen->availableGeometry().size() : QSize(1440, 900);
    // The frame (title bar, borders) is not known before the window is shown: leave room for it.
    resize(std::min(1920, available.width() - 16), std::min(1200, available.height() - 40));
}

QWidget* MainWindow::inScrollArea(QWidget* content) {
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    return scroll;
}

// The dendrogram's two overlays are switched in the view itself (context menu, toolbar check box);
// the View menu offers them too, kept in step with the view both ways.
void MainWindow::buildDendrogramViewMenu(QMenu* view) {
    QMenu* tree = view->addMenu(tr("&Dendrogram"));
    views::DendrogramWidget* widget = m_dendrogramPanel->widget();
    QAction* marks = tree->addAction(tr("Threshold-size &marks (MHCA)"));
    marks->setCheckable(true);
    marks->setChecked(widget->thresholdMarksShown());
    marks->setToolTip(tr("Marks on the height axis where clusters reach MHCA's size threshold T\u00b7N"));
    connect(marks, &QAction::toggled, widget, &views::DendrogramWidget::setThresholdMarksShown);
    connect(widget, &views::DendrogramWidget::thresholdMarksShownChanged, marks, &QAction::setChecked);
    QAction* ivat = tree->addAction(tr("&iVAT in tree order"));
    ivat->setCheckable(true);
    ivat->setChecked(m_dendrogramPanel->treeVatShown());
    connect(ivat, &QAction::toggled, m_dendrogramPanel, &views::DendrogramPanel::setTreeVatShown);
    connect(m_dendrogramPanel, &views::DendrogramPanel::treeVatShownChanged, ivat, &QAction::setChecked);
}

void MainWindow::buildFocusMenu(QMenu* view) {
    m_focus = new FocusMode(this);
    view->addSeparator();
    m_focus->addViews(view, tr("Data scatter"), docksNamed(this, kViewDocks));
}

}  // namespace clusterlens::gui

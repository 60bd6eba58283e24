#pragma once
// Dock content of the dendrogram view: which tree (the AnalysisSession's linkages or an imported
// linkage CSV), linear or log heights, the number of clusters of the cut, inversion warning and
// fix, exports; the interactive DendrogramWidget; the table of the cut's clusters.
// It keeps the tree linked with the rest of the application through the AnalysisSession: a cut
// becomes a labeling ("cut of <linkage> (k=5)") that colours every view, a clicked subtree becomes
// the selection, and a selection made elsewhere highlights its leaves. Layouts of large trees and
// cuts of large trees run as jobs. A tree computed on a population (leaf k = its k-th member) is
// linked the same way through the whole-dataset indices of its members. Under the tree, optionally,
// the iVAT image in the tree's leaf order (tree_vat_strip.hpp).

#include <QStringList>
#include <QWidget>

#include <functional>
#include <map>
#include <memory>

#include "analysis_session.hpp"
#include "clusterlens/dataset.hpp"
#include "dendrogram/dendrogram_clusters.hpp"
#include "dendrogram/dendrogram_cut.hpp"
#include "dendrogram/dendrogram_layout.hpp"
#include "figure/figure.hpp"
#include "figure/figure_export_source.hpp"
#include "jobs/job_runner.hpp"

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QTableView;
class QToolButton;

namespace clusterlens::views {

class AnalysisSession;
class ClusterTableModel;
class ColourStripChooser;
class ClustermapWidget;
struct Clustermap;
class DendrogramFigure;
class DendrogramWidget;
class TreeVatStrip;
struct VatRun;

class DendrogramPanel : public QWidget {
    Q_OBJECT
public:
    /// Trees up to this many leaves are laid out and cut on the GUI thread (milliseconds).
    static constexpr std::size_t inlineLimit = 50'000;

    DendrogramPanel(JobRunner* runner, AnalysisSession* analysis, QWidget* parent = nullptr);
    ~DendrogramPanel() override;

    /// The dataset whose points the leaves are, and the features whose means are shown.
    void setDataSource(std::shared_ptr<const Dataset> dataset, const QStringList& activeFeatures);
    /// Shows the AnalysisSession's linkage `name` (laid out as a job when large).
    void showLinkage(const QString& name);
    /// Reads a linkage CSV (a,b,height,size) as a job, adds it to the session and shows it.
    void importLinkage(const QString& path);
    /// Cuts the shown tree into k populations of at least minClusterSize() leaves (1: no cut).
    void setClusterCount(int k);
    /// Clusters smaller than m are "small/outliers": grey, listed apart, not counted in k. A new
    /// tree starts at defaultMinClusterSize(N) (clusterlens/hca/linkage_cut.hpp).
    void setMinClusterSize(int m);
    int minClusterSize() const;
    /// The clustermap under the tree: off, or medians scaled by z-score or min-max per marker.
    void setClustermapMode(int mode);
    /// The clustermap under the tree: 0 none, 1 medians z-scored, 2 medians min-max scaled.
    int clustermapMode() const;
    ClustermapWidget* clustermapWidget() const { return m_clustermap; }
    void setLogHeights(bool logarithmic);

    /// The iVAT image in the tree's leaf order under the tree (off by default). It needs a VAT run on
    /// the tree's events: one offered (offerVatRun), else one computed as a job of its own (cancellable).
    void setTreeVatShown(bool shown);
    bool treeVatShown() const;
    TreeVatStrip* treeVatStrip() const { return m_treeVat; }
    /// The VAT run the iVAT in tree order shows (or showed last); null when none.
    const std::shared_ptr<const VatRun>& treeVatRun() const { return m_vatRun; }
    /// A VAT run made elsewhere (the VAT view): the iVAT in tree order uses it when it ran on the
    /// tree's events (not a sample).
    void offerVatRun(std::shared_ptr<const VatRun> run);
    /// Cancels the VAT order the iVAT in tree order waits for.
    void cancelTreeVat();
    /// The features a stored tree was computed on (empty when not known, as for an imported tree).
    using LinkageFeatures = std::function<QStringList(const QString& linkage)>;
    /// The iVAT in tree order compares the tree with the VAT of the same features: those of `source`
    /// where it knows them, else the active features (and its status says so).
    void setLinkageFeatures(LinkageFeatures source);

    DendrogramWidget* widget() const { return m_widget; }
    /// The colour strips under the leaves (labelings, populations or markers).
    ColourStripChooser* stripChooser() const { return m_strips; }
    ClusterTableModel* clusterTable() const { return m_tableModel; }
    QString currentLinkage() const { return m_linkageName; }
    const std::shared_ptr<const DendrogramLayout>& layout() const { return m_layout; }
    const std::shared_ptr<const DendrogramCut>& cut() const { return m_cut; }
    /// The labeling the current cut was stored as in the AnalysisSession (empty when none).
    const QString& cutLabeling() const { return m_cutLabeling; }
    int clusterCount() const;

    /// The figure of what is shown: the whole tree, or only the leaves in view.
    std::unique_ptr<DendrogramFigure> figure(bool currentViewOnly) const;
    /// Exports: figure (format by extension), Newick, labels CSV of the cut, linkage CSV. Figures
    /// are written at once (errors go to message()); the others run as jobs (errors reach the job
    /// runner's jobFinished).
    void exportFigureTo(const QString& path, const FigureExportOptions& options, bool currentViewOnly);
    /// What the figure export dialog needs: the figure, the `plot dendrogram` command, the methods.
    FigureExportSource figureExportSource() const;
    void exportNewickTo(const QString& path);
    void exportLabelsTo(const QString& path);
    void exportLinkageTo(const QString& path);

Q_SIGNALS:
    /// The tree of `name` is laid out and on screen.
    void treeShown(const QString& name);
    /// A cut into k clusters is shown (and, when the tree fits the dataset, colours every view).
    void cutApplied(int k);
    /// Something for the log: an export written, a tree imported, a failure outside a job.
    void message(const QString& text, bool error);
    /// The iVAT in tree order was switched on or off (its check box or setTreeVatShown).
    void treeVatShownChanged(bool shown);

private:
    QWidget* buildToolbar();
    QToolButton* buildExportButton();
    void refreshLinkages();
    void applyLayout(const QString& name, std::shared_ptr<const DendrogramLayout> layout);
    void applyCut(int k);
    void refreshClustermap();
    QWidget* buildCutControls(QWidget* parent);
    void showCut(std::shared_ptr<const DendrogramCut> cut, std::shared_ptr<const ClusterTable> table);
    void selectSubtree(std::int32_t node);
    void onSessionSelection(const QObject* origin);
    void fixHeights();
    /// Leaf ids are the dataset's event indices (a tree of all events).
    bool treeFitsData() const;
    /// The leaves are events of the dataset: all of them, or the members of the tree's population.
    bool linkedToData() const;
    /// The tree's features in the tree's dataset (setLinkageFeatures), else the active ones.
    FeatureSelection treeFeatures(bool* known = nullptr) const;
    /// Takes the shown tree's scope (ResultScope): features and strips of its events.
    void followScope();
    void updateInfo();
    void chooseFigureExport();
    QWidget* buildTreeVatControls(QWidget* parent);
    /// Shows the iVAT in tree order for the shown tree: from a fitting run, else starts one.
    void refreshTreeVat();
    bool vatRunFitsTree(const VatRun& run) const;
    void chooseFileExport(const QString& title, const QString& filter,
                          void (DendrogramPanel::*exporter)(const QString&));

    JobRunner* m_runner;
    AnalysisSession* m_analysis;
    DendrogramWidget* m_widget;
    ClusterTableModel* m_tableModel;
    ColourStripChooser* m_strips;
    QTableView* m_table = nullptr;
    QComboBox* m_linkages = nullptr;
    QComboBox* m_heightScale = nullptr;
    QSpinBox* m_clusters = nullptr;
    QLabel* m_info = nullptr;
    QPushButton* m_fix = nullptr;
    QSpinBox* m_minSize = nullptr;
    QComboBox* m_heatmapMode = nullptr;
    ClustermapWidget* m_clustermap = nullptr;
    TreeVatStrip* m_treeVat = nullptr;
    QCheckBox* m_treeVatBox = nullptr;
    QPushButton* m_treeVatCancel = nullptr;
    std::shared_ptr<const VatRun> m_vatRun;      ///< the run the iVAT in tree order shows
    std::shared_ptr<const VatRun> m_offeredVat;  ///< the last run offered (offerVatRun)
    LinkageFeatures m_linkageFeatures;
    JobId m_treeVatJob = 0;
    std::shared_ptr<const Dataset> m_dataset;
    FeatureSelection m_features;
    QString m_linkageName;
    std::shared_ptr<const Linkage> m_linkage;
    std::shared_ptr<const DendrogramLayout> m_layout;
    std::shared_ptr<const DendrogramCut> m_cut;
    QString m_cutLabeling;
    ResultScope m_scope;  ///< the events the shown tree clustered
    // Layouts already built, by linkage: switching trees back and forth costs nothing.
    std::map<const Linkage*, std::pair<std::weak_ptr<const Linkage>, std::shared_ptr<const DendrogramLayout>>>
        m_layouts;
    bool m_updating = false;
};

}  // namespace clusterlens::views

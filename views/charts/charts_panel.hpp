#pragma once
// The Charts dock: small statistical charts drawn with Qt Charts (the large views keep their own
// renderers). Three pages: the sizes of the dendrogram cut's clusters (small clusters grey), the
// merge-height profile for choosing k (the current cut marked), and histograms of one marker over
// the checked populations, overlaid. Each page exports through the figure export dialog with the
// `clusterlens-cli plot sizes|merge-heights|histograms` command that draws it headless.

#include <QWidget>

#include <memory>
#include <vector>

#include "charts/chart_data.hpp"
#include "figure/figure_export_source.hpp"

class QComboBox;
class QLabel;
class QListWidget;
class QTabWidget;

QT_BEGIN_NAMESPACE
class QChartView;
QT_END_NAMESPACE

namespace clusterlens::views {

class ChartsPanel : public QWidget {
    Q_OBJECT
public:
    enum Page { SizesPage, ProfilePage, HistogramPage };

    explicit ChartsPanel(QWidget* parent = nullptr);

    /// The dendrogram shown and its cut (either may be null); unchanged pointers cost nothing.
    void setCut(std::shared_ptr<const DendrogramLayout> layout, std::shared_ptr<const DendrogramCut> cut,
                const QString& treeName);
    /// The events whose marker values the histograms count (rows = event indices of populations).
    void setData(std::shared_ptr<const Dataset> dataset);
    /// The session's populations; the checked ones (by name) stay checked, new ones start unchecked
    /// unless none is checked, then the first two are.
    void setPopulations(std::vector<ChartPopulation> populations);
    void setMarker(const QString& marker);
    /// Checks exactly the populations named.
    void checkPopulations(const QStringList& names);

    const BarChartData& sizeBars() const { return m_bars; }
    const MergeProfile& profile() const { return m_profile; }
    const HistogramData& histogram() const { return m_histogram; }
    QChartView* chartView(Page page) const { return m_views[page]; }
    QTabWidget* pages() const { return m_pages; }
    /// What the figure export dialog needs for `page`; invalid when the page shows nothing.
    FigureExportSource figureExportSource(Page page) const;

Q_SIGNALS:
    void message(const QString& text, bool error);

private:
    QWidget* buildPage(Page page, QWidget* controls);
    void refreshCut();
    void refreshHistogram();
    void exportPage(Page page);

    QTabWidget* m_pages;
    QChartView* m_views[3] = {nullptr, nullptr, nullptr};
    QLabel* m_sizesNote = nullptr;
    QComboBox* m_marker = nullptr;
    QListWidget* m_populationList = nullptr;
    std::shared_ptr<const DendrogramLayout> m_layout;
    std::shared_ptr<const DendrogramCut> m_cut;
    QString m_treeName;
    std::shared_ptr<const Dataset> m_data;
    std::vector<ChartPopulation> m_populations;
    BarChartData m_bars;
    MergeProfile m_profile;
    HistogramData m_histogram;
};

}  // namespace clusterlens::views

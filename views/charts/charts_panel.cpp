#include "charts/charts_panel.hpp"

#include <QChart>
#include <QChartView>
#include <QAbstractAxis>
#include <QComboBox>
#include <QLegend>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>

#include "charts/chart_builders.hpp"
#include "charts/chart_figure.hpp"
#include "figure/figure_export_dialog.hpp"

namespace clusterlens::views {

namespace {

constexpr int kHistogramBins = 64;
constexpr int kDefaultChecked = 2;

/// The widget font with its own style strategy, so that Qt Charts' text measurement (a static text
/// item in libQt6Charts that lives until the process exits) never shares a font engine with the
/// OpenGL views: a font engine that an OpenGL paint engine drew with carries an OpenGL glyph cache,
/// and destroying that cache after QApplication has gone crashes the process at exit.
QFont chartFont(const QFont& base, bool bold = false) {
    QFont font = base;
    font.setStyleStrategy(QFont::StyleStrategy(QFont::PreferQuality | QFont::PreferAntialias));
    font.setBold(bold);
    return font;
}

void useChartFonts(QChart* chart, const QFont& base) {
    chart->setTitleFont(chartFont(base, true));
    chart->legend()->setFont(chartFont(base));
    for (QAbstractAxis* axis : chart->axes()) {
        axis->setLabelsFont(chartFont(base));
        axis->setTitleFont(chartFont(base));
    }
}

void showChart(QChartView* view, QChart* chart) {
    useChartFonts(chart, view->font());
    QChart* old = view->chart();
    view->setChart(chart);
    delete old;
}

}  // namespace

ChartsPanel::ChartsPanel(QWidget* parent) : QWidget(parent), m_pages(new QTabWidget(this)) {
    m_sizesNote = new QLabel(this);
    m_sizesNote->setWordWrap(true);
    m_pages->addTab(buildPage(SizesPage, m_sizesNote), tr("Cluster sizes"));
    m_pages->addTab(buildPage(ProfilePage, nullptr), tr("Merge heights"));

    auto* controls = new QWidget(this);
    m_marker = new QComboBox(controls);
    m_marker->setToolTip(tr("Marker whose histograms are shown"));
    m_populationList = new QListWidget(controls);
    m_populationList->setToolTip(tr("Populations whose histograms are overlaid"));
    m_populationList->setMaximumHeight(90);
    auto* row = new QHBoxLayout(controls);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_marker, 0, Qt::AlignTop);
    row->addWidget(m_populationList, 1);
    m_pages->addTab(buildPage(HistogramPage, controls), tr("Marker histograms"));
    connect(m_marker, &QComboBox::currentIndexChanged, this, &ChartsPanel::refreshHistogram);
    connect(m_populationList, &QListWidget::itemChanged, this, &ChartsPanel::refreshHistogram);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_pages);
    refreshCut();
    refreshHistogram();
}

QWidget* ChartsPanel::buildPage(Page page, QWidget* controls) {
    auto* widget = new QWidget(m_pages);
    m_views[page] = new QChartView(widget);
    useChartFonts(m_views[page]->chart(), m_views[page]->font());
    m_views[page]->setRenderHint(QPainter::Antialiasing, true);
    m_views[page]->setMinimumSize(240, 180);
    auto* exportButton = new QPushButton(tr("Export\u2026"), widget);
    exportButton->setToolTip(tr("Export this chart as a figure (PNG, TIFF, SVG, PDF)"));
    connect(exportButton, &QPushButton::clicked, this, [this, page] { exportPage(page); });
    auto* bottom = new QHBoxLayout;
    if (controls)
        bottom->addWidget(controls, 1);
    else
        bottom->addStretch(1);
    bottom->addWidget(exportButton, 0, Qt::AlignBottom);
    auto* layout = new QVBoxLayout(widget);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_views[page], 1);
    layout->addLayout(bottom);
    return widget;
}

void ChartsPanel::setCut(std::shared_ptr<const DendrogramLayout> layout, std::shared_ptr<const DendrogramCut> cut,
                         const QString& treeName) {
    if (layout == m_layout && cut == m_cut && treeName == m_treeName) return;
    m_layout = std::move(layout);
    m_cut = m_layout ? std::move(cut) : nullptr;
    m_treeName = treeName;
    refreshCut();
}

void ChartsPanel::refreshCut() {
    m_bars = m_layout && m_cut ? clusterSizeBars(*m_layout, *m_cut) : BarChartData();
    m_profile = m_layout ? mergeHeightProfile(*m_layout, m_cut ? m_cut->k : 1) : MergeProfile();
    showChart(m_views[SizesPage], makeClusterSizeChart(m_bars, clusterSizeTitles()));
    showChart(m_views[ProfilePage], makeMergeProfileChart(m_profile, mergeProfileTitles()));
    QString note;
    if (!m_cut)
        note = tr("Cut the dendrogram (k \u2265 2) to see its cluster sizes.");
    else if (m_cut->k > m_cut->populations)
        note = tr("%1 clusters of at least %2 events; %3 small clusters in grey (s).")
                   .arg(m_cut->populations)
                   .arg(m_cut->minSize)
                   .arg(m_cut->k - m_cut->populations);
    if (m_bars.omitted > 0) note += tr(" %1 more clusters not shown.").arg(m_bars.omitted);
    m_sizesNote->setText(note);
}

void ChartsPanel::setData(std::shared_ptr<const Dataset> dataset) {
    m_data = std::move(dataset);
    const QString previous = m_marker->currentText();
    const QSignalBlocker block(m_marker);
    m_marker->clear();
    if (m_data)
        for (const std::string& feature : m_data->features) m_marker->addItem(QString::fromStdString(feature));
    m_marker->setCurrentIndex(std::max(0, m_marker->findText(previous)));
    refreshHistogram();
}

void ChartsPanel::setPopulations(std::vector<ChartPopulation> populations) {
    QStringList checked;
    for (int row = 0; row < m_populationList->count(); ++row)
        if (m_populationList->item(row)->checkState() == Qt::Checked) checked << m_populationList->item(row)->text();
    m_populations = std::move(populations);
    const QSignalBlocker block(m_populationList);
    m_populationList->clear();
    for (const ChartPopulation& p : m_populations) {
        auto* item = new QListWidgetItem(p.name, m_populationList);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setForeground(p.colour.darker(130));
        item->setCheckState(checked.contains(p.name) ? Qt::Checked : Qt::Unchecked);
    }
    if (checked.isEmpty())
        for (int row = 0; row < std::min(kDefaultChecked, m_populationList->count()); ++row)
            m_populationList->item(row)->setCheckState(Qt::Checked);
    refreshHistogram();
}

void ChartsPanel::setMarker(const QString& marker) {
    m_marker->setCurrentIndex(m_marker->findText(marker));
}

void ChartsPanel::checkPopulations(const QStringList& names) {
    {
        const QSignalBlocker block(m_populationList);
        for (int row = 0; row < m_populationList->count(); ++row) {
            QListWidgetItem* item = m_populationList->item(row);
            item->setCheckState(names.contains(item->text()) ? Qt::Checked : Qt::Unchecked);
        }
    }
    refreshHistogram();
}

void ChartsPanel::refreshHistogram() {
    std::vector<ChartPopulation> shown;
    for (int row = 0; row < m_populationList->count() && row < static_cast<int>(m_populations.size()); ++row)
        if (m_populationList->item(row)->checkState() == Qt::Checked)
            shown.push_back(m_populations[static_cast<std::size_t>(row)]);
    const int column = m_marker->currentIndex();
    m_histogram = m_data && column >= 0
                      ? markerHistograms(*m_data, static_cast<std::size_t>(column), shown, kHistogramBins)
                      : HistogramData();
    showChart(m_views[HistogramPage], makeHistogramChart(m_histogram, histogramTitles(m_histogram.marker)));
}

FigureExportSource ChartsPanel::figureExportSource(Page page) const {
    FigureExportSource source;
    const bool empty = page == SizesPage     ? m_bars.values.empty()
                       : page == ProfilePage ? m_profile.points.empty()
                                             : m_histogram.series.empty();
    if (empty) return source;
    // Copies: the figure draws what is shown now, whatever the panel shows later.
    const BarChartData bars = m_bars;
    const MergeProfile profile = m_profile;
    const HistogramData histogram = m_histogram;
    static const char* const kNames[] = {"cluster_sizes", "merge_heights", "marker_histograms"};
    const QString titles[] = {tr("Cluster sizes: %1").arg(m_treeName), tr("Merge heights: %1").arg(m_treeName),
                              tr("%1 by population").arg(m_histogram.marker)};
    source.name = m_pages->tabText(page);
    source.title = tr("Export %1").arg(source.name.toLower());
    source.suggestedName = QString::fromLatin1(kNames[page]);
    if (page == HistogramPage) {
        // `plot histograms` reads the populations from the session (a placeholder name while unsaved).
        QStringList names;
        for (const HistogramData::Series& series : m_histogram.series) names << series.name;
        const QStringList plot = {QStringLiteral("clusterlens-cli"), QStringLiteral("plot"),
                                  QStringLiteral("histograms")};
        const QStringList options = {QStringLiteral("--marker"), m_histogram.marker, QStringLiteral("--populations"),
                                     names.join(QLatin1Char(','))};
        source.command = plot + (m_data ? datasetInputWords(*m_data) : QStringList()) +
                         QStringList{QStringLiteral("--session"), QStringLiteral("SESSION.clusterlens")} + options;
        source.sessionCommand = plot + options;
    } else {
        // `plot sizes|merge-heights` draw these two from the tree and its cut.
        const QStringList plot = {QStringLiteral("clusterlens-cli"), QStringLiteral("plot"),
                                  page == SizesPage ? QStringLiteral("sizes") : QStringLiteral("merge-heights")};
        QStringList options;
        if (m_cut)
            options << QStringLiteral("--cut-k") << QString::number(m_cut->populations)
                    << QStringLiteral("--min-cluster-size") << QString::number(m_cut->minSize);
        source.command = plot + QStringList{resultFileName(m_treeName)} + options;
        source.sessionCommand = plot + QStringList{QStringLiteral("--name"), m_treeName} + options;
    }
    if (m_data) source.dataFiles = {QString::fromStdString(m_data->provenance.path)};
    const QString title = titles[page];
    source.figure = [page, bars, profile, histogram, title](bool) -> std::unique_ptr<Figure> {
        if (page == SizesPage)
            return std::make_unique<ChartFigure>(
                title, clusterSizeTitles(), [bars](const ChartAxisTitles& t) { return makeClusterSizeChart(bars, t); });
        if (page == ProfilePage)
            return std::make_unique<ChartFigure>(title, mergeProfileTitles(), [profile](const ChartAxisTitles& t) {
                return makeMergeProfileChart(profile, t);
            });
        return std::make_unique<ChartFigure>(
            title, histogramTitles(histogram.marker),
            [histogram](const ChartAxisTitles& t) { return makeHistogramChart(histogram, t); });
    };
    return source;
}

void ChartsPanel::exportPage(Page page) {
    const FigureExportSource source = figureExportSource(page);
    if (!source.isValid()) {
        Q_EMIT message(tr("The chart shows nothing to export yet"), true);
        return;
    }
    const QString path = runFigureExportDialog(source, this);
    if (!path.isEmpty()) Q_EMIT message(tr("Wrote %1").arg(path), false);
}

}  // namespace clusterlens::views

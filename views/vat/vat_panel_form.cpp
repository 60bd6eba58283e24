// Widgets of the VAT page and the display options they hold; the behaviour is in vat_panel.cpp.

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

#include "clusterlens/vat/colormap.hpp"
#include "clusterlens/vat/metric.hpp"
#include "figure/figure_export_dialog.hpp"
#include "figure/methods_text.hpp"
#include "flow_layout.hpp"
#include "vat/vat_figure.hpp"
#include "session/session_results.hpp"
#include "vat/vat_panel.hpp"
#include "populations/run_on_choice.hpp"
#include "vat/vat_widget.hpp"

namespace clusterlens::views {

namespace {

QDoubleSpinBox* percentBox(QWidget* parent, double low, double high, double value) {
    auto* box = new QDoubleSpinBox(parent);
    box->setRange(low, high);
    box->setDecimals(1);
    box->setSingleStep(0.5);
    box->setValue(value);
    box->setSuffix(QStringLiteral(" %"));
    box->setKeyboardTracking(false);
    return box;
}

/// "clip low – high": the two percentiles of the colour scale, kept on one line.
QWidget* clipRange(QWidget* low, QWidget* high, QWidget* parent) {
    auto* range = new QWidget(parent);
    auto* row = new QHBoxLayout(range);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(new QLabel(QObject::tr("clip"), range));
    row->addWidget(low);
    row->addWidget(new QLabel(QStringLiteral("\u2013"), range));
    row->addWidget(high);
    return range;
}

}  // namespace

QWidget* VatPanel::buildComputeRow() {
    auto* box = new QWidget(this);
    m_metric = new QComboBox(box);
    for (Metric metric : {Metric::Euclidean, Metric::SqEuclidean, Metric::Manhattan, Metric::Cosine})
        m_metric->addItem(QString::fromLatin1(metricName(metric)), static_cast<int>(metric));
    m_metric->setToolTip(tr("Dissimilarity of two points over the active features"));
    m_backend = new QComboBox(box);
    m_backend->addItem(tr("Auto"), static_cast<int>(Backend::Auto));
    m_backend->addItem(tr("CPU"), static_cast<int>(Backend::Cpu));
    m_backend->addItem(tr("CUDA"), static_cast<int>(Backend::Cuda));
    m_runButton = new QPushButton(tr("Compute"), box);
    m_runButton->setToolTip(
        tr("VAT order of the active features: farthest pair, exact minimum spanning tree, Prim order"));
    m_cancelButton = new QPushButton(tr("Cancel"), box);
    m_progress = new QProgressBar(box);
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(false);
    m_progress->setFixedWidth(120);
    m_status = new QLabel(box);
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::PlainText);
    connect(m_runButton, &QPushButton::clicked, this, &VatPanel::run);
    connect(m_cancelButton, &QPushButton::clicked, this, &VatPanel::cancel);

    m_sample = new QCheckBox(tr("Sample (sVAT)"), box);
    m_sample->setToolTip(
        tr("The VAT of a sample that keeps every cluster (sVAT: maximin groups, each sampled in proportion to its "
           "size) instead of every point: for data too large for the exact VAT without a GPU. The image and "
           "its figure say \u201csample\u201d."));
    m_sampleSize = new QSpinBox(box);
    m_sampleSize->setRange(2, 10'000'000);
    m_sampleSize->setSingleStep(1000);
    m_sampleSize->setValue(5000);
    m_sampleSize->setToolTip(tr("Points in the sample"));
    m_runOn = new RunOnChoice(m_analysis, box);
    auto* rows = new QVBoxLayout(box);
    rows->setContentsMargins(0, 0, 0, 0);
    rows->addWidget(flowRow({labelledField(tr("Run on"), m_runOn, box), labelledField(tr("Metric"), m_metric, box),
                             labelledField(tr("Backend"), m_backend, box), flowRow({m_sample, m_sampleSize}, box),
                             m_runButton, m_cancelButton, m_progress},
                            box));
    rows->addWidget(m_status);
    return box;
}

QWidget* VatPanel::buildDisplayRow() {
    auto* box = new QWidget(this);
    m_kind = new QComboBox(box);
    m_kind->addItem(tr("iVAT (minimax path distance)"), static_cast<int>(VatImageKind::Ivat));
    m_kind->addItem(tr("VAT (distance)"), static_cast<int>(VatImageKind::Vat));
    m_mode = new QComboBox(box);
    m_mode->addItem(tr("representative pixels"), static_cast<int>(VatPixelMode::Representative));
    m_mode->addItem(tr("block mean pixels"), static_cast<int>(VatPixelMode::BlockMean));
    m_mode->setToolTip(
        tr("VAT only: a pixel covering many positions shows the distance of its centre points "
           "or the mean over a 4\u00d74 sample of its block"));
    m_colormap = new QComboBox(box);
    m_colormap->addItem(tr("grey"), static_cast<int>(Colormap::Grey));
    m_colormap->addItem(tr("viridis"), static_cast<int>(Colormap::Viridis));
    m_colormap->addItem(tr("magma"), static_cast<int>(Colormap::Magma));
    m_reversed = new QCheckBox(tr("reversed"), box);
    m_gamma = new QDoubleSpinBox(box);
    m_gamma->setRange(0.1, 10.0);
    m_gamma->setSingleStep(0.1);
    m_gamma->setValue(1.0);
    m_gamma->setPrefix(tr("\u03b3 "));
    m_gamma->setKeyboardTracking(false);
    m_lowPercent = percentBox(box, 0.0, 49.0, 0.0);
    m_highPercent = percentBox(box, 51.0, 100.0, 99.0);
    m_lowPercent->setToolTip(tr("Distances below this percentile of the image get the first colour"));
    m_highPercent->setToolTip(tr("Distances above this percentile of the image get the last colour"));
    m_holdLevels = new QCheckBox(tr("hold contrast"), box);
    m_holdLevels->setToolTip(tr("Keep the contrast levels of the image shown now while zooming and panning"));
    m_clusters = new QSpinBox(box);
    m_clusters->setRange(1, 1);
    m_clusters->setPrefix(tr("k = "));
    m_clusters->setSpecialValueText(tr("no cuts"));
    m_clusters->setKeyboardTracking(false);
    m_clusters->setToolTip(tr("Clusters from the k\u22121 largest cuts of the order (single linkage), as clusiVAT"));
    m_export = buildExportButton();

    for (QComboBox* combo : {m_kind, m_mode, m_colormap})
        connect(combo, &QComboBox::currentIndexChanged, this, &VatPanel::onDisplayChanged);
    connect(m_reversed, &QCheckBox::toggled, this, &VatPanel::onDisplayChanged);
    for (QDoubleSpinBox* spin : {m_gamma, m_lowPercent, m_highPercent})
        connect(spin, &QDoubleSpinBox::valueChanged, this, &VatPanel::onDisplayChanged);
    connect(m_holdLevels, &QCheckBox::toggled, m_widget, &VatWidget::setHoldLevels);
    connect(m_clusters, &QSpinBox::valueChanged, this, [this](int k) { applyCut(k); });

    // Two groups, what the image shows and how it is coloured, each wrapping in a narrow column.
    auto* rows = new QVBoxLayout(box);
    rows->setContentsMargins(0, 0, 0, 0);
    rows->addWidget(flowRow({m_kind, m_mode, m_clusters, m_export}, box));
    rows->addWidget(
        flowRow({m_colormap, m_reversed, m_gamma, clipRange(m_lowPercent, m_highPercent, box), m_holdLevels}, box));
    return box;
}

QToolButton* VatPanel::buildExportButton() {
    auto* button = new QToolButton(this);
    button->setText(tr("Export"));
    button->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(button);
    menu->addAction(tr("Image (PNG, PDF, SVG)\u2026"), this, &VatPanel::chooseFigureExport);
    menu->addAction(tr("Order (ORDER.csv)\u2026"), this, &VatPanel::chooseOrderExport);
    button->setMenu(menu);
    return button;
}

void VatPanel::setMetric(Metric metric) {
    m_metric->setCurrentIndex(m_metric->findData(static_cast<int>(metric)));
}

void VatPanel::setBackend(Backend backend) {
    m_backend->setCurrentIndex(m_backend->findData(static_cast<int>(backend)));
}

void VatPanel::setImageKind(VatImageKind kind) {
    m_kind->setCurrentIndex(m_kind->findData(static_cast<int>(kind)));
}

VatDisplay VatPanel::display() const {
    VatDisplay d;
    d.kind = static_cast<VatImageKind>(m_kind->currentData().toInt());
    d.mode = static_cast<VatPixelMode>(m_mode->currentData().toInt());
    d.colormap = static_cast<Colormap>(m_colormap->currentData().toInt());
    d.reversed = m_reversed->isChecked();
    d.gamma = m_gamma->value();
    d.lowPercent = m_lowPercent->value();
    d.highPercent = m_highPercent->value();
    return d;
}

void VatPanel::setDisplay(const VatDisplay& d) {
    {
        m_updating = true;
        m_kind->setCurrentIndex(m_kind->findData(static_cast<int>(d.kind)));
        m_mode->setCurrentIndex(m_mode->findData(static_cast<int>(d.mode)));
        m_colormap->setCurrentIndex(m_colormap->findData(static_cast<int>(d.colormap)));
        m_reversed->setChecked(d.reversed);
        m_gamma->setValue(d.gamma);
        m_lowPercent->setValue(d.lowPercent);
        m_highPercent->setValue(d.highPercent);
        m_updating = false;
    }
    onDisplayChanged();
}

void VatPanel::onDisplayChanged() {
    if (m_updating) return;
    m_mode->setEnabled(m_kind->currentData().toInt() == static_cast<int>(VatImageKind::Vat));
    m_widget->setDisplay(display());
}

void VatPanel::updateEnabled() {
    const bool ready = m_dataset && !m_features.isEmpty();
    m_runButton->setEnabled(ready && !isRunning());
    m_cancelButton->setEnabled(isRunning());
    m_metric->setEnabled(!isRunning());
    m_backend->setEnabled(!isRunning());
    const bool haveRun = m_run != nullptr;
    for (QWidget* w : {static_cast<QWidget*>(m_clusters), static_cast<QWidget*>(m_export)}) w->setEnabled(haveRun);
    if (!m_dataset)
        m_status->setText(tr("No dataset loaded."));
    else if (!haveRun && !isRunning())
        m_status->setText(tr("%1 points \u00d7 %2 active features").arg(m_dataset->n).arg(m_features.size()));
}

FigureExportSource VatPanel::figureExportSource() const {
    FigureExportSource source;
    if (!m_run) return source;
    const bool ivat = display().kind == VatImageKind::Ivat;
    source.title = tr("Export VAT image");
    source.name = ivat ? tr("iVAT image") : tr("VAT image");
    source.suggestedName = ivat ? QStringLiteral("ivat") : QStringLiteral("vat");
    source.viewOnly = tr("Only the part in view");
    source.figure = [this](bool viewOnly) -> std::unique_ptr<Figure> { return m_run ? figure(viewOnly) : nullptr; };
    const Dataset& dataset = *m_run->request.dataset;
    QStringList columns;
    for (std::size_t c : m_run->request.columns) columns << QString::fromStdString(dataset.features[c]);
    source.command = QStringList{QStringLiteral("clusterlens-cli"), QStringLiteral("plot"), QStringLiteral("vat")} +
                     datasetInputWords(dataset, columns) +
                     QStringList{QStringLiteral("--image"),    ivat ? QStringLiteral("ivat") : QStringLiteral("vat"),
                                 QStringLiteral("--metric"),   QString::fromLatin1(metricName(m_run->vat->metric)),
                                 QStringLiteral("--colormap"), QString::fromLatin1(colormapName(display().colormap))};
    // From the saved session: the stored order (session_recorder.cpp names it vatEntryName), its metric.
    source.sessionCommand = QStringList{QStringLiteral("clusterlens-cli"), QStringLiteral("plot"),
                                        QStringLiteral("vat"), QStringLiteral("--name"), vatEntryName(*m_run)} +
                            source.command.mid(source.command.indexOf(QStringLiteral("--image")), 2) +
                            source.command.mid(source.command.indexOf(QStringLiteral("--colormap")), 2);
    if (const auto cuts = m_widget->cutBoundaries(); !cuts.empty()) {
        source.command << QStringLiteral("--cut-k") << QString::number(cuts.size() + 1);
        source.sessionCommand << QStringLiteral("--cut-k") << QString::number(cuts.size() + 1);
    }
    const QStringList displayWords =
        vatDisplayWords(display(), m_holdLevels->isChecked() ? std::optional(m_widget->levels()) : std::nullopt);
    source.command << displayWords;
    source.sessionCommand << displayWords;
    if (!m_widget->window().isWhole()) source.viewOptions = vatWindowWords(m_widget->window());
    source.command << stripWords(*m_strips, *m_analysis, m_dataset.get(), false);
    source.sessionCommand << stripWords(*m_strips, *m_analysis, m_dataset.get(), true);
    source.dataFiles = {QString::fromStdString(dataset.provenance.path)};
    source.methods = vatMethods(m_run->n(), QString::fromLatin1(metricName(m_run->vat->metric)), ivat);
    return source;
}

void VatPanel::chooseFigureExport() {
    const FigureExportSource source = figureExportSource();
    if (!source.isValid()) return;
    const QString path = runFigureExportDialog(source, this);
    if (path.isEmpty()) return;
    Q_EMIT message(tr("Wrote %1").arg(path), false);
    Q_EMIT exported(path);
}

void VatPanel::chooseOrderExport() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export VAT order"), QStringLiteral("ORDER.csv"),
                                                      tr("ORDER.csv (*.csv)"));
    if (!path.isEmpty()) exportOrderTo(path);
}

}  // namespace clusterlens::views

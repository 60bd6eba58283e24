#include "dataset_panel.hpp"

#include <algorithm>
#include <utility>

#include <QComboBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QPushButton>
#include <QVBoxLayout>

#include "clusterlens/io/default_read_spec.hpp"

#include "open/transform_table.hpp"

#include "colouring_combo.hpp"

namespace clusterlens::views {

namespace {

QString featureLabel(const Dataset& dataset, std::size_t j) {
    const QString name = QString::fromStdString(dataset.features[j]);
    if (j < dataset.descriptions.size() && !dataset.descriptions[j].empty() &&
        dataset.descriptions[j] != dataset.features[j])
        return QStringLiteral("%1 (%2)").arg(name, QString::fromStdString(dataset.descriptions[j]));
    return name;
}

}  // namespace

DatasetPanel::DatasetPanel(QWidget* parent)
    : QWidget(parent),
      m_file(new QLabel(tr("No dataset"), this)),
      m_shape(new QLabel(this)),
      m_backend(new QLabel(this)),
      m_features(new QListWidget(this)),
      m_coordinates(new QComboBox(this)),
      m_x(new QComboBox(this)),
      m_y(new QComboBox(this)),
      m_colour(new ColouringCombo(tr("Density"), this)),
      m_transformLabel(new QLabel(this)) {
    m_file->setWordWrap(true);
    m_file->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont bold = m_file->font();
    bold.setBold(true);
    m_file->setFont(bold);
    m_backend->setWordWrap(true);

    auto* info = new QFormLayout;
    info->addRow(tr("Size:"), m_shape);
    info->addRow(tr("Backend:"), m_backend);

    auto* featureBox = new QGroupBox(tr("Features used by analyses"), this);
    auto* all = new QPushButton(tr("All"), featureBox);
    auto* none = new QPushButton(tr("None"), featureBox);
    auto* featureButtons = new QHBoxLayout;
    featureButtons->addWidget(all);
    featureButtons->addWidget(none);
    featureButtons->addStretch();
    auto* featureLayout = new QVBoxLayout(featureBox);
    featureLayout->addWidget(m_features);
    featureLayout->addLayout(featureButtons);
    const auto checkAll = [this](Qt::CheckState state) {
        m_updating = true;
        for (int i = 0; i < m_features->count(); ++i) m_features->item(i)->setCheckState(state);
        m_updating = false;
        Q_EMIT activeFeaturesChanged(activeFeatures());
    };
    connect(all, &QPushButton::clicked, this, [checkAll] { checkAll(Qt::Checked); });
    connect(none, &QPushButton::clicked, this, [checkAll] { checkAll(Qt::Unchecked); });
    connect(m_features, &QListWidget::itemChanged, this, [this] {
        if (!m_updating) Q_EMIT activeFeaturesChanged(activeFeatures());
    });

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_file);
    layout->addLayout(info);
    layout->addWidget(buildTransformBox());
    layout->addWidget(buildScatterBox());
    layout->addWidget(featureBox, 1);
    setEnabled(false);
}

QWidget* DatasetPanel::buildTransformBox() {
    auto* box = new QGroupBox(tr("Transform"), this);
    m_transformLabel->setObjectName(QStringLiteral("TransformLabel"));
    m_transformLabel->setWordWrap(true);
    m_transformLabel->setText(m_transform.label());
    auto* edit = new QPushButton(tr("Edit\u2026"), box);
    edit->setObjectName(QStringLiteral("EditTransform"));
    edit->setToolTip(tr("Per-channel arcsinh cofactors, count-matrix steps, z-score"));
    auto* row = new QHBoxLayout(box);
    row->addWidget(m_transformLabel, 1);
    row->addWidget(edit);
    connect(edit, &QPushButton::clicked, this, &DatasetPanel::editTransformChoice);
    return box;
}

QWidget* DatasetPanel::buildScatterBox() {
    auto* box = new QGroupBox(tr("Scatter"), this);
    auto* form = new QFormLayout(box);
    // In a narrow column a field too wide beside its label goes under it.
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    form->addRow(tr("Coordinates:"), m_coordinates);
    form->addRow(tr("X:"), m_x);
    form->addRow(tr("Y:"), m_y);
    form->addRow(tr("Colour:"), m_colour);
    // Long feature names must not widen the dock; the popup still shows them in full.
    for (QComboBox* combo : {m_coordinates, m_x, m_y}) {
        combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        combo->setMinimumContentsLength(10);
    }
    connect(m_coordinates, &QComboBox::currentIndexChanged, this, [this] {
        if (m_updating) return;
        fillCoordinates(m_coordinates->currentData().toInt());
        Q_EMIT axesChanged(axes());
    });
    const auto axisEdited = [this] {
        if (!m_updating) Q_EMIT axesChanged(axes());
    };
    connect(m_x, &QComboBox::currentIndexChanged, this, axisEdited);
    connect(m_y, &QComboBox::currentIndexChanged, this, axisEdited);
    return box;
}

void DatasetPanel::setDataset(std::shared_ptr<const Dataset> dataset) {
    m_dataset = std::move(dataset);
    setEnabled(m_dataset != nullptr);
    if (!m_dataset) return;
    const Dataset& d = *m_dataset;
    m_updating = true;
    const QString path = QString::fromStdString(d.provenance.path);
    m_file->setText(QFileInfo(path).fileName());
    m_file->setToolTip(
        QStringLiteral("%1\n%2 %3")
            .arg(path, QString::fromStdString(d.provenance.format), QString::fromStdString(d.provenance.detail)));
    m_shape->setText(QStringLiteral("%1 \u00d7 %2").arg(QLocale().toString(static_cast<qulonglong>(d.n))).arg(d.d));

    m_features->clear();
    const bool anyPreferred = std::any_of(m_preferredActive.begin(), m_preferredActive.end(),
                                          [&](const QString& name) { return d.featureIndex(name.toStdString()) >= 0; });
    for (std::size_t j = 0; j < d.d; ++j) {
        auto* item = new QListWidgetItem(featureLabel(d, j), m_features);
        const QString name = QString::fromStdString(d.features[j]);
        item->setData(Qt::UserRole, name);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(!anyPreferred || m_preferredActive.contains(name) ? Qt::Checked : Qt::Unchecked);
    }

    m_coordinates->clear();
    m_coordinates->addItem(tr("Features"), -1);
    for (std::size_t e = 0; e < d.embeddings.size(); ++e)
        if (d.embeddings[e].d >= 2 && d.embeddings[e].n == d.n)
            m_coordinates->addItem(tr("Embedding %1").arg(QString::fromStdString(d.embeddings[e].name)),
                                   static_cast<int>(e));
    m_colour->setDataset(m_dataset);
    chooseInitialAxes();
    m_updating = false;
}

void DatasetPanel::chooseInitialAxes() {
    const Dataset& d = *m_dataset;
    long px = m_preferredX.isEmpty() ? -1 : d.featureIndex(m_preferredX.toStdString());
    long py = m_preferredY.isEmpty() ? -1 : d.featureIndex(m_preferredY.toStdString());
    if ((px < 0 || py < 0) && d.embeddings.empty()) {
        // Cytometry files: forward against side scatter is where every analysis starts.
        px = d.featureIndex("FSC-A");
        py = d.featureIndex("SSC-A");
    }
    if (px >= 0 && py >= 0 && px != py) {
        m_coordinates->setCurrentIndex(0);
        fillCoordinates(-1);
        m_x->setCurrentIndex(static_cast<int>(px));
        m_y->setCurrentIndex(static_cast<int>(py));
        return;
    }
    // Otherwise the engine's proposal: an embedding (UMAP first), the most variable genes of a count
    // matrix (the first two genes are mostly zeros), or the first two measurements.
    const DefaultScatter proposal = proposeReadSpec(d).scatter;
    int coordinates = 0;
    for (int i = 1; i < m_coordinates->count(); ++i) {
        const auto& embedding = d.embeddings[static_cast<std::size_t>(m_coordinates->itemData(i).toInt())];
        if (embedding.name == proposal.embedding) coordinates = i;
    }
    m_coordinates->setCurrentIndex(coordinates);
    fillCoordinates(m_coordinates->currentData().toInt());
    if (coordinates == 0 && !proposal.embedding.empty()) return;  // an embedding the scatter cannot show
    m_x->setCurrentIndex(static_cast<int>(proposal.x));
    m_y->setCurrentIndex(static_cast<int>(proposal.y));
}

void DatasetPanel::fillCoordinates(int embedding) {
    const bool wasUpdating = std::exchange(m_updating, true);
    m_x->clear();
    m_y->clear();
    const Dataset& d = *m_dataset;
    if (embedding < 0) {
        for (std::size_t j = 0; j < d.d; ++j) {
            m_x->addItem(featureLabel(d, j));
            m_y->addItem(featureLabel(d, j));
        }
    } else {
        const Embedding& e = d.embeddings[static_cast<std::size_t>(embedding)];
        for (std::size_t j = 0; j < e.d; ++j) {
            const QString name = QStringLiteral("%1 %2").arg(QString::fromStdString(e.name)).arg(j + 1);
            m_x->addItem(name);
            m_y->addItem(name);
        }
    }
    m_x->setCurrentIndex(0);
    m_y->setCurrentIndex(m_y->count() > 1 ? 1 : 0);
    m_updating = wasUpdating;
}

void DatasetPanel::setBackendText(const QString& text) {
    m_backend->setText(text);
}

void DatasetPanel::setPreferredAxes(const QString& x, const QString& y) {
    m_preferredX = x;
    m_preferredY = y;
}

void DatasetPanel::setPreferredActiveFeatures(const QStringList& names) {
    m_preferredActive = names;
}

void DatasetPanel::setTransform(const TransformChoice& choice) {
    m_transform = choice;
    m_transformLabel->setText(choice.label());
    m_transformLabel->setToolTip(choice.key());
}

TransformChoice DatasetPanel::transform() const {
    return m_transform;
}

void DatasetPanel::chooseTransform(const TransformChoice& choice) {
    if (choice == m_transform) return;
    setTransform(choice);
    Q_EMIT transformChanged(choice);
}

void DatasetPanel::editTransformChoice() {
    if (!m_dataset) return;
    QStringList channels;
    for (const std::string& feature : m_dataset->features) channels << QString::fromStdString(feature);
    if (const auto edited = editTransform(this, channels, m_transform)) chooseTransform(*edited);
}

ScatterAxes DatasetPanel::axes() const {
    ScatterAxes a;
    a.embedding = m_coordinates->currentIndex() >= 0 ? m_coordinates->currentData().toInt() : -1;
    a.x = static_cast<std::size_t>(std::max(0, m_x->currentIndex()));
    a.y = static_cast<std::size_t>(std::max(0, m_y->currentIndex()));
    return a;
}

ColourMode DatasetPanel::colourMode() const {
    return m_colour->mode();
}

QStringList DatasetPanel::activeFeatures() const {
    QStringList names;
    for (int i = 0; i < m_features->count(); ++i)
        if (m_features->item(i)->checkState() == Qt::Checked)
            names << m_features->item(i)->data(Qt::UserRole).toString();
    return names;
}

QString DatasetPanel::xName() const {
    const ScatterAxes a = axes();
    if (!m_dataset || a.embedding >= 0 || a.x >= m_dataset->d) return {};
    return QString::fromStdString(m_dataset->features[a.x]);
}

QString DatasetPanel::yName() const {
    const ScatterAxes a = axes();
    if (!m_dataset || a.embedding >= 0 || a.y >= m_dataset->d) return {};
    return QString::fromStdString(m_dataset->features[a.y]);
}

}  // namespace clusterlens::views

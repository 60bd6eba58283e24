#include "open/read_options_form.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QLocale>
#include <QSpinBox>

#include <limits>

namespace clusterlens::views {

namespace {

bool isTable(const std::string& format) {
    return format == "csv" || format == "tsv" || format == "txt";
}
bool isHdf5(const std::string& format) {
    return format == "h5" || format == "h5ad" || format == "10x-h5";
}

}  // namespace

ReadOptionsForm::ReadOptionsForm(QWidget* parent)
    : QWidget(parent),
      m_compensate(new QCheckBox(tr("Compensate with the file's spillover matrix"), this)),
      m_labelColumn(new QComboBox(this)),
      m_dataset(new QLineEdit(this)),
      m_embedding(new QComboBox(this)),
      m_subsample(new QSpinBox(this)),
      m_seed(new QSpinBox(this)) {
    m_labelColumn->setEditable(true);
    m_labelColumn->setToolTip(tr("A column of class labels (text or numbers): its classes become label names"));
    m_dataset->setPlaceholderText(tr("auto (10x /matrix, AnnData X)"));
    m_subsample->setRange(0, std::numeric_limits<int>::max());
    m_subsample->setSpecialValueText(tr("all events"));
    m_subsample->setGroupSeparatorShown(true);
    m_seed->setRange(0, std::numeric_limits<int>::max());
    m_seed->setValue(1);
    auto* form = new QFormLayout(this);
    form->addRow(tr("FCS:"), m_compensate);
    form->addRow(tr("Label column:"), m_labelColumn);
    form->addRow(tr("HDF5 dataset:"), m_dataset);
    form->addRow(tr("Embedding as data:"), m_embedding);
    form->addRow(tr("Subsample:"), m_subsample);
    form->addRow(tr("Seed:"), m_seed);
    connect(m_dataset, &QLineEdit::editingFinished, this, &ReadOptionsForm::readAgainNeeded);
    connect(m_embedding, &QComboBox::activated, this, &ReadOptionsForm::readAgainNeeded);
    connect(m_labelColumn, &QComboBox::activated, this, &ReadOptionsForm::readAgainNeeded);
    connect(m_subsample, &QSpinBox::valueChanged, this, [this](int value) { m_seed->setEnabled(value > 0); });
}

void ReadOptionsForm::setInspected(const Dataset& raw, const DatasetReadSpec& spec) {
    const std::string& format = raw.provenance.format;
    const bool hasSpillover = raw.provenance.detail.find("spillover matrix present") != std::string::npos ||
                              raw.provenance.detail.find("compensated with") != std::string::npos;
    m_compensate->setEnabled(format == "fcs" && hasSpillover);
    m_compensate->setChecked(spec.compensate && m_compensate->isEnabled());
    m_compensate->setToolTip(format != "fcs" ? tr("Only FCS files hold a spillover matrix")
                             : hasSpillover  ? tr("The file holds a $SPILLOVER/SPILL matrix")
                                             : tr("This file holds no spillover matrix"));

    m_labelColumn->clear();
    m_labelColumn->addItem(tr("(none)"), QString());
    for (const Annotation& a : raw.annotations)
        m_labelColumn->addItem(QString::fromStdString(a.name), QString::fromStdString(a.name));
    if (!raw.labelSource.empty() && m_labelColumn->findData(QString::fromStdString(raw.labelSource)) < 0)
        m_labelColumn->addItem(QString::fromStdString(raw.labelSource), QString::fromStdString(raw.labelSource));
    for (const std::string& feature : raw.features)
        m_labelColumn->addItem(QString::fromStdString(feature), QString::fromStdString(feature));
    const int label = m_labelColumn->findData(QString::fromStdString(spec.labelColumn));
    if (label >= 0)
        m_labelColumn->setCurrentIndex(label);
    else
        m_labelColumn->setEditText(QString::fromStdString(spec.labelColumn));
    m_labelColumn->setEnabled(isTable(format));

    m_dataset->setText(QString::fromStdString(spec.h5Dataset));
    m_dataset->setEnabled(isHdf5(format));
    m_embedding->clear();
    m_embedding->addItem(tr("(none: the matrix X)"), QString());
    for (const Embedding& e : raw.embeddings)
        m_embedding->addItem(QString::fromStdString(e.name), QString::fromStdString(e.name));
    m_embedding->setCurrentIndex(std::max(0, m_embedding->findData(QString::fromStdString(spec.embedding))));
    m_embedding->setEnabled(format == "h5ad" && m_embedding->count() > 1);

    m_subsample->setMaximum(static_cast<int>(std::min<std::size_t>(raw.n, std::numeric_limits<int>::max())));
    m_subsample->setValue(static_cast<int>(std::min<std::uint64_t>(spec.subsample, raw.n)));
    m_subsample->setToolTip(tr("Keep this many of the %1 events, drawn at random with the seed below")
                                .arg(QLocale().toString(static_cast<qulonglong>(raw.n))));
    m_seed->setValue(static_cast<int>(std::min<std::uint64_t>(spec.seed, std::numeric_limits<int>::max())));
    m_seed->setEnabled(m_subsample->value() > 0);
}

DatasetReadSpec ReadOptionsForm::apply(DatasetReadSpec spec) const {
    spec.compensate = m_compensate->isEnabled() && m_compensate->isChecked();
    const int label = m_labelColumn->currentIndex();
    const QString typed = m_labelColumn->currentText();
    spec.labelColumn =
        (label >= 0 && m_labelColumn->itemText(label) == typed ? m_labelColumn->itemData(label).toString()
                                                               : typed.trimmed())
            .toStdString();
    if (!m_labelColumn->isEnabled()) spec.labelColumn.clear();
    spec.h5Dataset = m_dataset->isEnabled() ? m_dataset->text().trimmed().toStdString() : std::string();
    spec.embedding = m_embedding->isEnabled() ? m_embedding->currentData().toString().toStdString() : std::string();
    spec.subsample = static_cast<std::uint64_t>(m_subsample->value());
    spec.seed = static_cast<std::uint64_t>(m_seed->value());
    return spec;
}

}  // namespace clusterlens::views

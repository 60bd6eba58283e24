#include "open/open_dialog.hpp"

#include <QDialogButtonBox>
#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QPushButton>
#include <QVBoxLayout>

#include <set>

#include "clusterlens/io/read_dataset.hpp"
#include "jobs/job_runner.hpp"
#include "open/read_options_form.hpp"
#include "open/transform_table.hpp"

namespace clusterlens::views {

namespace {

const QString kInspectSlot = QStringLiteral("open-dialog-inspect");

bool looksLikeHdf5(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    return suffix == QLatin1String("h5") || suffix == QLatin1String("hdf5") || suffix == QLatin1String("h5ad");
}

}  // namespace

OpenDialog::OpenDialog(JobRunner* runner, const QString& path, std::optional<OpenChoice> remembered, QWidget* parent)
    : QDialog(parent),
      m_runner(runner),
      m_path(path),
      m_remembered(std::move(remembered)),
      m_form(new ReadOptionsForm(this)),
      m_transform(new TransformTable(this)),
      m_channels(new QListWidget(this)),
      m_summary(new QLabel(tr("Reading the file\u2026"), this)),
      m_readAgain(new QPushButton(tr("Read again"), this)),
      m_buttons(new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel, this)) {
    setObjectName(QStringLiteral("OpenDialog"));
    setWindowTitle(tr("Open %1").arg(QFileInfo(path).fileName()));
    m_summary->setWordWrap(true);
    // Room for the three lines a long reason takes, so that it never overlaps the title.
    m_summary->setMinimumHeight(m_summary->fontMetrics().lineSpacing() * 3);
    m_summary->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_summary->setObjectName(QStringLiteral("OpenSummary"));
    auto* title = new QLabel(QStringLiteral("<b>%1</b>").arg(QFileInfo(path).fileName().toHtmlEscaped()), this);
    title->setToolTip(path);

    auto* readBox = new QGroupBox(tr("Reading"), this);
    auto* readLayout = new QVBoxLayout(readBox);
    readLayout->addWidget(m_form);
    readLayout->addWidget(m_readAgain, 0, Qt::AlignRight);
    auto* left = new QVBoxLayout;
    left->addWidget(readBox);
    left->addWidget(buildChannelBox(), 1);
    auto* transformBox = new QGroupBox(tr("Transform"), this);
    auto* transformLayout = new QVBoxLayout(transformBox);
    transformLayout->addWidget(m_transform);
    auto* columns = new QHBoxLayout;
    columns->addLayout(left, 1);
    columns->addWidget(transformBox, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(title);
    layout->addWidget(m_summary);
    layout->addLayout(columns, 1);
    layout->addWidget(m_buttons);

    m_buttons->button(QDialogButtonBox::Open)->setEnabled(false);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_readAgain, &QPushButton::clicked, this, &OpenDialog::inspect);
    connect(m_form, &ReadOptionsForm::readAgainNeeded, this, &OpenDialog::inspect);
    resize(900, 620);
    if (m_remembered) m_inspectedRead = m_remembered->spec;
    inspect();
}

OpenDialog::~OpenDialog() {
    m_runner->cancelSlot(kInspectSlot);
}

QWidget* OpenDialog::buildChannelBox() {
    auto* box = new QGroupBox(tr("Channels used by analyses"), this);
    auto* all = new QPushButton(tr("All"), box);
    auto* none = new QPushButton(tr("None"), box);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(all);
    buttons->addWidget(none);
    buttons->addStretch();
    auto* layout = new QVBoxLayout(box);
    layout->addWidget(m_channels, 1);
    layout->addLayout(buttons);
    const auto checkAll = [this](Qt::CheckState state) {
        for (int i = 0; i < m_channels->count(); ++i) m_channels->item(i)->setCheckState(state);
    };
    connect(all, &QPushButton::clicked, this, [checkAll] { checkAll(Qt::Checked); });
    connect(none, &QPushButton::clicked, this, [checkAll] { checkAll(Qt::Unchecked); });
    return box;
}

void OpenDialog::inspect() {
    // What is read here: the form's reader options once it has been shown, without compensation
    // (its matrix is applied when the file is opened) and without subsample.
    DatasetReadSpec read = isReady() ? m_form->apply(m_inspectedRead) : m_inspectedRead;
    read.compensate = false;
    read.subsample = 0;
    m_buttons->button(QDialogButtonBox::Open)->setEnabled(false);
    m_readAgain->setEnabled(false);
    m_summary->setText(tr("Reading the file\u2026"));
    const std::string file = m_path.toStdString();
    m_runner->start<ProposedRead>(
        this, kInspectSlot, tr("Inspect %1").arg(QFileInfo(m_path).fileName()),
        [file, options = read](JobControl& control) {
            auto raw = std::make_shared<const Dataset>(readChosen(file, options, &control));
            return ProposedRead{raw, proposeOpenChoice(*raw, &control)};
        },
        [this, read](const JobOutcome<ProposedRead>& outcome) {
            m_readAgain->setEnabled(true);
            if (outcome.state != JobState::Finished) {
                const QString message = outcome.state == JobState::Failed ? outcome.message : tr("cancelled");
                m_summary->setText(tr("Could not read the file: %1").arg(message));
                // An HDF5 file without a recognised matrix needs its dataset named.
                m_form->hdf5Dataset()->setEnabled(looksLikeHdf5(m_path));
                Q_EMIT inspectionFailed(message);
                return;
            }
            m_inspectedRead = read;
            showInspected(outcome.result->data, outcome.result->choice);
        });
}

void OpenDialog::showInspected(std::shared_ptr<const Dataset> raw, const OpenChoice& proposed) {
    const bool first = !m_raw;
    m_raw = std::move(raw);
    m_proposed = proposed;
    OpenChoice shown = proposed;
    // The options last used for this file apply to the first reading; a reading with other reader
    // options starts again from that reading's defaults.
    if (first && m_remembered) shown = *m_remembered;
    DatasetReadSpec formSpec = shown.spec;
    if (!first) formSpec = m_form->apply(shown.spec);
    formSpec.h5Dataset = m_inspectedRead.h5Dataset;
    formSpec.embedding = m_inspectedRead.embedding;
    formSpec.labelColumn = m_inspectedRead.labelColumn;
    if (!first) formSpec.compensate = proposed.spec.compensate;
    m_form->setInspected(*m_raw, formSpec);

    const std::set<std::string> used(shown.spec.columns.begin(), shown.spec.columns.end());
    m_channels->clear();
    QStringList names;
    for (const std::string& feature : m_raw->features) {
        auto* item = new QListWidgetItem(QString::fromStdString(feature), m_channels);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(used.empty() || used.count(feature) ? Qt::Checked : Qt::Unchecked);
        names << QString::fromStdString(feature);
    }
    m_transform->setChannels(names);
    m_transform->setChoice(transformOf(shown.spec));
    m_summary->setText(tr("%1 events \u00d7 %2 channels (%3). %4")
                           .arg(QLocale().toString(static_cast<qulonglong>(m_raw->n)))
                           .arg(m_raw->d)
                           .arg(QString::fromStdString(m_raw->provenance.format),
                                first && m_remembered ? tr("The options last used for this file.")
                                                      : tr("Defaults: %1.").arg(proposed.reason)));
    m_buttons->button(QDialogButtonBox::Open)->setEnabled(true);
    Q_EMIT inspected();
}

OpenChoice OpenDialog::choice() const {
    OpenChoice out = m_proposed;
    out.spec = m_form->apply(m_inspectedRead);
    out.spec.columns.clear();
    bool allChecked = true;
    for (int i = 0; i < m_channels->count(); ++i) {
        const QListWidgetItem* item = m_channels->item(i);
        if (item->checkState() == Qt::Checked)
            out.spec.columns.push_back(item->text().toStdString());
        else
            allChecked = false;
    }
    if (allChecked) out.spec.columns.clear();
    const TransformChoice transform = m_transform->choice();
    out.spec.transform = transform.spec().toStdString();
    out.spec.cofactors = transform.cofactors;
    return out;
}

std::shared_ptr<const Dataset> OpenDialog::reusableData() const {
    if (!m_raw) return nullptr;
    DatasetReadSpec asRead = m_inspectedRead;
    asRead.compensate = false;
    asRead.subsample = 0;
    return sameRead(choice().spec, asRead) ? m_raw : nullptr;
}

}  // namespace clusterlens::views

#include "open/transform_table.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QStyledItemDelegate>
#include <QTableWidget>
#include <QVBoxLayout>

#include <map>
#include <utility>

namespace clusterlens::views {

namespace {

constexpr double kMinCofactor = 0.001;
constexpr double kMaxCofactor = 1e6;

/// Edits a cofactor with the same range as the "apply to all" box (the default editor stops at 99.99).
class CofactorDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem&, const QModelIndex&) const override {
        auto* spin = new QDoubleSpinBox(parent);
        spin->setRange(kMinCofactor, kMaxCofactor);
        spin->setDecimals(3);
        return spin;
    }
};

QDoubleSpinBox* cofactorBox(QWidget* parent) {
    auto* spin = new QDoubleSpinBox(parent);
    spin->setRange(kMinCofactor, kMaxCofactor);
    spin->setDecimals(3);
    spin->setValue(5.0);
    spin->setKeyboardTracking(false);
    return spin;
}

struct CountSteps {
    bool normalize = false;
    bool log1p = false;
    int pca = 0;
    bool other = false;  ///< a step that is none of these
};

CountSteps countSteps(const QString& steps) {
    CountSteps out;
    for (const QString& raw : steps.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QString step = raw.trimmed();
        if (step == QLatin1String("normalize-total"))
            out.normalize = true;
        else if (step == QLatin1String("log1p"))
            out.log1p = true;
        else if (step.startsWith(QLatin1String("pca:")) && step.mid(4).toInt() > 0)
            out.pca = step.mid(4).toInt();
        else
            out.other = true;
    }
    return out;
}

TransformTable::Method methodOf(const TransformChoice& choice) {
    const QString steps = choice.steps.trimmed();
    if (steps.isEmpty()) return TransformTable::None;
    if (steps == QLatin1String("zscore")) return TransformTable::ZScore;
    if (!steps.contains(QLatin1Char(',')) && choice.asinhCofactor() > 0.0) return TransformTable::Asinh;
    return countSteps(steps).other || !choice.cofactors.empty() ? TransformTable::Custom : TransformTable::Counts;
}

}  // namespace

TransformTable::TransformTable(QWidget* parent)
    : QWidget(parent),
      m_method(new QComboBox(this)),
      m_pages(new QStackedWidget(this)),
      m_allCofactor(cofactorBox(this)),
      m_table(new QTableWidget(0, 4, this)),
      m_normalize(new QCheckBox(tr("normalise-total (every cell to the median total)"), this)),
      m_log1p(new QCheckBox(tr("log1p"), this)),
      m_pca(new QSpinBox(this)),
      m_custom(new QLineEdit(this)) {
    m_method->addItem(tr("None (values as read)"), None);
    m_method->addItem(tr("arcsinh, cofactor per channel (cytometry)"), Asinh);
    m_method->addItem(tr("Count matrix: normalise-total, log1p, PCA"), Counts);
    m_method->addItem(tr("z-score per feature"), ZScore);
    m_method->addItem(tr("Steps as text"), Custom);
    m_pages->addWidget(new QWidget(this));
    m_pages->addWidget(buildAsinhPage());
    m_pages->addWidget(buildCountsPage());
    m_pages->addWidget(new QWidget(this));
    m_custom->setPlaceholderText(QStringLiteral("normalize-total,log1p,pca:30"));
    m_custom->setToolTip(tr("Steps joined by commas: asinh:COFACTOR, zscore, normalize-total[:TARGET], log1p, pca:K"));
    m_pages->addWidget(m_custom);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_method);
    layout->addWidget(m_pages, 1);
    connect(m_method, &QComboBox::currentIndexChanged, this, [this] {
        showMethod();
        if (!m_updating) Q_EMIT changed();
    });
    connect(m_custom, &QLineEdit::editingFinished, this, &TransformTable::changed);
    showMethod();
}

QWidget* TransformTable::buildAsinhPage() {
    auto* page = new QWidget(this);
    auto* apply = new QPushButton(tr("Apply to all"), page);
    apply->setObjectName(QStringLiteral("ApplyToAll"));
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Cofactor:"), page));
    row->addWidget(m_allCofactor);
    row->addWidget(apply);
    row->addStretch();
    m_table->setHorizontalHeaderLabels({tr("Channel"), tr("On"), tr("Transform"), tr("Cofactor")});
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(ChannelColumn, QHeaderView::Stretch);
    m_table->setItemDelegateForColumn(CofactorColumn, new CofactorDelegate(m_table));
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(row);
    layout->addWidget(m_table, 1);
    connect(apply, &QPushButton::clicked, this, [this] { applyToAll(m_allCofactor->value()); });
    connect(m_table, &QTableWidget::itemChanged, this, [this](QTableWidgetItem* item) {
        if (m_updating) return;
        updateRow(item->row());
        Q_EMIT changed();
    });
    return page;
}

QWidget* TransformTable::buildCountsPage() {
    auto* page = new QWidget(this);
    m_pca->setRange(0, 4096);
    m_pca->setSpecialValueText(tr("no PCA"));
    m_pca->setSuffix(tr(" components"));
    m_pca->setKeyboardTracking(false);
    auto* form = new QFormLayout(page);
    form->addRow(m_normalize);
    form->addRow(m_log1p);
    form->addRow(tr("PCA:"), m_pca);
    for (QCheckBox* box : {m_normalize, m_log1p})
        connect(box, &QCheckBox::toggled, this, [this] {
            if (!m_updating) Q_EMIT changed();
        });
    connect(m_pca, &QSpinBox::valueChanged, this, [this] {
        if (!m_updating) Q_EMIT changed();
    });
    return page;
}

void TransformTable::showMethod() {
    const Method m = method();
    m_pages->setCurrentIndex(m);
    m_pages->setVisible(m != None && m != ZScore);
    // A count matrix has thousands of genes: the per-channel table is filled only when it is shown.
    if (m == Asinh && m_table->rowCount() != m_channels.size()) {
        const bool wasUpdating = std::exchange(m_updating, true);
        fillTable(m_allCofactor->value(), {});
        m_updating = wasUpdating;
    }
}

void TransformTable::setChannels(const QStringList& channels) {
    m_channels = channels;
    const bool wasUpdating = std::exchange(m_updating, true);
    m_table->setRowCount(0);
    showMethod();
    m_updating = wasUpdating;
}

void TransformTable::fillTable(double fallback, const std::vector<ChannelCofactor>& cofactors) {
    std::map<QString, double> own;
    for (const ChannelCofactor& c : cofactors) own[QString::fromStdString(c.channel)] = c.cofactor;
    m_table->setRowCount(static_cast<int>(m_channels.size()));
    for (int row = 0; row < m_channels.size(); ++row) {
        const auto it = own.find(m_channels[row]);
        const bool on = it == own.end() || it->second > 0.0;
        auto* channel = new QTableWidgetItem(m_channels[row]);
        channel->setFlags(Qt::ItemIsEnabled);
        auto* check = new QTableWidgetItem;
        check->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        check->setCheckState(on ? Qt::Checked : Qt::Unchecked);
        auto* transform = new QTableWidgetItem;
        transform->setFlags(Qt::ItemIsEnabled);
        auto* cofactor = new QTableWidgetItem;
        cofactor->setData(Qt::EditRole, it != own.end() && on ? it->second : fallback);
        m_table->setItem(row, ChannelColumn, channel);
        m_table->setItem(row, OnColumn, check);
        m_table->setItem(row, TransformColumn, transform);
        m_table->setItem(row, CofactorColumn, cofactor);
        updateRow(row);
    }
    m_table->resizeColumnToContents(OnColumn);
}

void TransformTable::updateRow(int row) {
    const bool wasUpdating = std::exchange(m_updating, true);
    const bool on = m_table->item(row, OnColumn)->checkState() == Qt::Checked;
    m_table->item(row, TransformColumn)->setText(on ? tr("arcsinh") : tr("linear (as read)"));
    QTableWidgetItem* cofactor = m_table->item(row, CofactorColumn);
    cofactor->setFlags(on ? Qt::ItemIsEnabled | Qt::ItemIsEditable : Qt::NoItemFlags);
    if (cofactor->data(Qt::EditRole).toDouble() < kMinCofactor) cofactor->setData(Qt::EditRole, m_allCofactor->value());
    m_updating = wasUpdating;
}

void TransformTable::setChoice(const TransformChoice& choice) {
    const bool wasUpdating = std::exchange(m_updating, true);
    const Method m = methodOf(choice);
    const CountSteps steps = countSteps(choice.steps);
    m_normalize->setChecked(steps.normalize);
    m_log1p->setChecked(steps.log1p);
    m_pca->setValue(steps.pca);
    m_custom->setText(m == Custom ? choice.steps : QString());
    if (m == Asinh) m_allCofactor->setValue(choice.asinhCofactor());
    m_method->setCurrentIndex(m_method->findData(m));
    fillTable(m_allCofactor->value(), m == Asinh ? choice.cofactors : std::vector<ChannelCofactor>{});
    showMethod();
    m_updating = wasUpdating;
}

TransformChoice TransformTable::choice() const {
    TransformChoice out;
    switch (method()) {
        case None:
            break;
        case ZScore:
            out.steps = QStringLiteral("zscore");
            break;
        case Custom:
            out.steps = m_custom->text().trimmed();
            break;
        case Counts: {
            QStringList steps;
            if (m_normalize->isChecked()) steps << QStringLiteral("normalize-total");
            if (m_log1p->isChecked()) steps << QStringLiteral("log1p");
            if (m_pca->value() > 0) steps << QStringLiteral("pca:%1").arg(m_pca->value());
            out.steps = steps.join(QLatin1Char(','));
            break;
        }
        case Asinh: {
            const double fallback = m_allCofactor->value();
            out.steps = QStringLiteral("asinh:%1").arg(fallback, 0, 'g', 10);
            for (int row = 0; row < m_table->rowCount(); ++row) {
                const bool on = m_table->item(row, OnColumn)->checkState() == Qt::Checked;
                const double cofactor = m_table->item(row, CofactorColumn)->data(Qt::EditRole).toDouble();
                if (!on || cofactor != fallback)
                    out.cofactors.push_back({m_channels[row].toStdString(), on ? cofactor : 0.0});
            }
            break;
        }
    }
    return out;
}

TransformTable::Method TransformTable::method() const {
    return static_cast<Method>(m_method->currentData().toInt());
}

void TransformTable::setMethod(Method method) {
    m_method->setCurrentIndex(m_method->findData(method));
}

int TransformTable::rowOf(const QString& channel) const {
    return static_cast<int>(m_channels.indexOf(channel));
}

void TransformTable::setChannelCofactor(const QString& channel, double cofactor) {
    const int row = rowOf(channel);
    if (row < 0 || row >= m_table->rowCount()) return;
    m_table->item(row, CofactorColumn)->setData(Qt::EditRole, cofactor);
}

void TransformTable::setChannelOn(const QString& channel, bool on) {
    const int row = rowOf(channel);
    if (row < 0 || row >= m_table->rowCount()) return;
    m_table->item(row, OnColumn)->setCheckState(on ? Qt::Checked : Qt::Unchecked);
}

void TransformTable::applyToAll(double cofactor) {
    {
        const bool wasUpdating = std::exchange(m_updating, true);
        m_allCofactor->setValue(cofactor);
        for (int row = 0; row < m_table->rowCount(); ++row)
            m_table->item(row, CofactorColumn)->setData(Qt::EditRole, cofactor);
        m_updating = wasUpdating;
    }
    if (!m_updating) Q_EMIT changed();
}

std::optional<TransformChoice> editTransform(QWidget* parent, const QStringList& channels,
                                             const TransformChoice& current) {
    QDialog dialog(parent);
    dialog.setObjectName(QStringLiteral("TransformDialog"));
    dialog.setWindowTitle(QObject::tr("Transform"));
    auto* table = new TransformTable(&dialog);
    table->setChannels(channels);
    table->setChoice(current);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto* layout = new QVBoxLayout(&dialog);
    layout->addWidget(table, 1);
    layout->addWidget(buttons);
    dialog.resize(520, 480);
    if (dialog.exec() != QDialog::Accepted) return std::nullopt;
    return table->choice();
}

}  // namespace clusterlens::views

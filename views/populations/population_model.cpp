#include "populations/population_model.hpp"

#include <QColor>
#include <QLocale>

#include <map>

#include "session/session_document.hpp"

namespace clusterlens::views {

PopulationModel::PopulationModel(SessionDocument* document, QObject* parent)
    : QAbstractItemModel(parent), m_document(document) {
    connect(m_document, &SessionDocument::documentReset, this, &PopulationModel::rebuild);
    connect(m_document, &SessionDocument::populationsChanged, this, &PopulationModel::rebuild);
    connect(m_document, &SessionDocument::populationStyleChanged, this, &PopulationModel::onStyleChanged);
    rebuild();
}

void PopulationModel::rebuild() {
    beginResetModel();
    m_nodes.clear();
    m_roots.clear();
    const Session& session = m_document->session();
    std::map<std::string, int> byName;
    for (const Population& population : session.populations) {
        byName[population.name] = static_cast<int>(m_nodes.size());
        Node node;
        node.name = QString::fromStdString(population.name);
        node.counts = populationCounts(session, population);
        m_nodes.push_back(std::move(node));
    }
    for (std::size_t i = 0; i < session.populations.size(); ++i) {
        const auto parent = byName.find(session.populations[i].parent);
        std::vector<int>& siblings =
            parent == byName.end() ? m_roots : m_nodes[static_cast<std::size_t>(parent->second)].children;
        m_nodes[i].parent = parent == byName.end() ? -1 : parent->second;
        m_nodes[i].row = static_cast<int>(siblings.size());
        siblings.push_back(static_cast<int>(i));
    }
    endResetModel();
}

void PopulationModel::onStyleChanged(const QString& name) {
    const QModelIndex first = indexOf(name);
    if (first.isValid()) Q_EMIT dataChanged(first, first.siblingAtColumn(ColumnCount - 1));
}

const PopulationModel::Node* PopulationModel::nodeAt(const QModelIndex& index) const {
    if (!index.isValid() || index.internalId() == 0 || index.internalId() > m_nodes.size()) return nullptr;
    return &m_nodes[index.internalId() - 1];
}

QModelIndex PopulationModel::index(int row, int column, const QModelIndex& parent) const {
    if (column < 0 || column >= ColumnCount || row < 0) return {};
    const Node* parentNode = nodeAt(parent);
    const std::vector<int>& rows = parentNode ? parentNode->children : m_roots;
    if (parent.isValid() && !parentNode) return {};
    if (row >= static_cast<int>(rows.size())) return {};
    return createIndex(row, column, static_cast<quintptr>(rows[static_cast<std::size_t>(row)] + 1));
}

QModelIndex PopulationModel::parent(const QModelIndex& child) const {
    const Node* node = nodeAt(child);
    if (!node || node->parent < 0) return {};
    const Node& parentNode = m_nodes[static_cast<std::size_t>(node->parent)];
    return createIndex(parentNode.row, 0, static_cast<quintptr>(node->parent + 1));
}

int PopulationModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() && parent.column() != 0) return 0;
    const Node* node = nodeAt(parent);
    if (parent.isValid()) return node ? static_cast<int>(node->children.size()) : 0;
    return static_cast<int>(m_roots.size());
}

int PopulationModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

QVariant PopulationModel::data(const QModelIndex& index, int role) const {
    const Node* node = nodeAt(index);
    if (!node) return {};
    const Population* population = m_document->population(node->name);
    if (!population) return {};
    const int column = index.column();
    if (role == Qt::TextAlignmentRole && column != NameColumn)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole) return QString::fromStdString(population->definition);
    if (column == NameColumn) {
        if (role == Qt::DisplayRole || role == Qt::EditRole) return node->name;
        if (role == Qt::DecorationRole) return QColor(QString::fromStdString(population->colour));
        if (role == Qt::CheckStateRole) return population->visible ? Qt::Checked : Qt::Unchecked;
        return {};
    }
    if (role != Qt::DisplayRole) return {};
    switch (column) {
        case CountColumn:
            return QLocale().toString(static_cast<qulonglong>(node->counts.count));
        case ParentPercentColumn:
            return QStringLiteral("%1 %").arg(node->counts.percentOfParent, 0, 'f', 2);
        case AllPercentColumn:
            return QStringLiteral("%1 %").arg(node->counts.percentOfAll, 0, 'f', 2);
        default:
            return {};
    }
}

bool PopulationModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    const Node* node = nodeAt(index);
    if (!node || index.column() != NameColumn) return false;
    if (role == Qt::CheckStateRole) {
        Q_EMIT visibilityRequested(node->name, value.toInt() == Qt::Checked);
        return true;
    }
    if (role == Qt::EditRole) {
        const QString name = value.toString().trimmed();
        if (name.isEmpty() || name == node->name) return false;
        Q_EMIT renameRequested(node->name, name);
        return true;
    }
    return false;
}

Qt::ItemFlags PopulationModel::flags(const QModelIndex& index) const {
    if (!nodeAt(index)) return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (index.column() == NameColumn) f |= Qt::ItemIsEditable | Qt::ItemIsUserCheckable;
    return f;
}

QVariant PopulationModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case NameColumn:
            return tr("Population");
        case CountColumn:
            return tr("Count");
        case ParentPercentColumn:
            return tr("% of parent");
        case AllPercentColumn:
            return tr("% of all");
        default:
            return {};
    }
}

QString PopulationModel::nameAt(const QModelIndex& index) const {
    const Node* node = nodeAt(index);
    return node ? node->name : QString();
}

QModelIndex PopulationModel::indexOf(const QString& name) const {
    for (std::size_t i = 0; i < m_nodes.size(); ++i)
        if (m_nodes[i].name == name) return createIndex(m_nodes[i].row, 0, static_cast<quintptr>(i + 1));
    return {};
}

}  // namespace clusterlens::views

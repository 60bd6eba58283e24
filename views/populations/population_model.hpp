#pragma once
// The populations of the session document as a tree (each population inside its parent) with the
// columns a gating panel shows: name (colour swatch, visibility check box), count, % of parent, % of
// all events. Edits of the name and the check box are not applied here: they are requested, so the
// panel can turn them into undoable commands.

#include <QAbstractItemModel>
#include <QString>

#include <vector>

#include "clusterlens/session/population.hpp"

namespace clusterlens::views {

class SessionDocument;

class PopulationModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { NameColumn, CountColumn, ParentPercentColumn, AllPercentColumn, ColumnCount };

    explicit PopulationModel(SessionDocument* document, QObject* parent = nullptr);

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// The population at `index` (any column); empty for an invalid index.
    QString nameAt(const QModelIndex& index) const;
    /// The name column's index of population `name`; invalid when there is none.
    QModelIndex indexOf(const QString& name) const;

Q_SIGNALS:
    void renameRequested(const QString& from, const QString& to);
    void visibilityRequested(const QString& name, bool visible);

private:
    struct Node {
        QString name;
        int parent = -1;  ///< node index, -1 for a root
        int row = 0;      ///< position among its parent's children
        std::vector<int> children;
        PopulationCounts counts;
    };
    void rebuild();
    void onStyleChanged(const QString& name);
    const Node* nodeAt(const QModelIndex& index) const;

    SessionDocument* m_document;
    std::vector<Node> m_nodes;
    std::vector<int> m_roots;
};

}  // namespace clusterlens::views

#pragma once
// The one control that chooses what colours the points: a first item (density for the scatter,
// nothing for a colour strip), then every labeling of the analysis session (cuts, DPC, k-means,
// the file's classes, the population set), then every marker of the dataset with its transform
// ("CD3 (arcsinh/5)"). The data scatter and the colour strips of the dendrogram and VAT views use it.

#include <QComboBox>
#include <QMetaType>
#include <QStringList>

#include <memory>

#include "clusterlens/dataset.hpp"
#include "scatter/scatter_data.hpp"

namespace clusterlens::views {

class ColouringCombo : public QComboBox {
    Q_OBJECT
public:
    /// `firstText` names the first item, whose mode is Density and name empty ("Density", "None").
    explicit ColouringCombo(const QString& firstText, QWidget* parent = nullptr);

    /// The markers offered: the dataset's features (none when null).
    void setDataset(std::shared_ptr<const Dataset> dataset);
    /// The labelings offered, in this order.
    void setLabelings(const QStringList& names);
    /// Shows a choice without emitting colouringChosen(); one that is not offered shows the first item.
    void setColouring(ColourMode mode, const QString& name);

    /// Density (the first item), Labels (name = the labeling) or Marker (name = the feature's short name).
    ColourMode mode() const;
    QString name() const;

Q_SIGNALS:
    /// The user chose another item.
    void colouringChosen(clusterlens::views::ColourMode mode, const QString& name);

private:
    void rebuild();

    QString m_firstText;
    std::shared_ptr<const Dataset> m_dataset;
    QStringList m_labelings;
    bool m_updating = false;
};

}  // namespace clusterlens::views

Q_DECLARE_METATYPE(clusterlens::views::ColourMode)

#pragma once
// Dock content describing the dataset and choosing what to look at: "N x D", the compute
// backend, the features active for analyses (checkboxes), the scatter's X/Y coordinates (features
// or an embedding), the colouring and the transform (edited in the one transform editor,
// open/transform_table.hpp, that the Open dialog shows too).

#include <QStringList>
#include <QWidget>

#include <memory>

#include "clusterlens/dataset.hpp"
#include "colouring_combo.hpp"
#include "dataset_session.hpp"
#include "scatter/scatter_data.hpp"

class QComboBox;
class QLabel;
class QListWidget;

namespace clusterlens::views {

class DatasetPanel : public QWidget {
    Q_OBJECT
public:
    explicit DatasetPanel(QWidget* parent = nullptr);

    /// Shows a newly loaded dataset. Axes named in setPreferredAxes() are chosen when present,
    /// else the first embedding, else the first two features; features named in
    /// setPreferredActiveFeatures() start checked (all when none of them exists).
    void setDataset(std::shared_ptr<const Dataset> dataset);
    void setBackendText(const QString& text);
    void setPreferredAxes(const QString& x, const QString& y);
    void setPreferredActiveFeatures(const QStringList& names);
    /// Shows `choice` without emitting transformChanged().
    void setTransform(const TransformChoice& choice);
    /// Replaces the transform as the user would (emits transformChanged() when it differs).
    void chooseTransform(const TransformChoice& choice);

    TransformChoice transform() const;
    ScatterAxes axes() const;
    ColourMode colourMode() const;
    /// The scatter's colouring: density, a labeling of the analysis session or a marker.
    ColouringCombo* colouringCombo() const { return m_colour; }
    QStringList activeFeatures() const;
    QString xName() const;
    QString yName() const;

Q_SIGNALS:
    void transformChanged(const clusterlens::views::TransformChoice& choice);
    void axesChanged(const clusterlens::views::ScatterAxes& axes);
    void activeFeaturesChanged(const QStringList& names);

private:
    void fillCoordinates(int embedding);
    void chooseInitialAxes();
    void editTransformChoice();
    QWidget* buildTransformBox();
    QWidget* buildScatterBox();

    std::shared_ptr<const Dataset> m_dataset;
    QLabel* m_file;
    QLabel* m_shape;
    QLabel* m_backend;
    QListWidget* m_features;
    QComboBox* m_coordinates;
    QComboBox* m_x;
    QComboBox* m_y;
    ColouringCombo* m_colour;
    QLabel* m_transformLabel;
    TransformChoice m_transform;
    QString m_preferredX;
    QString m_preferredY;
    QStringList m_preferredActive;
    bool m_updating = false;
};

}  // namespace clusterlens::views

Q_DECLARE_METATYPE(clusterlens::views::ScatterAxes)

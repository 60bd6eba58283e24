#pragma once
// Feeds the scatter widget: whenever the dataset, the axes, the colouring or the labels change it
// prepares a new ScatterData (inline for small data, as a job for large data) and hands it over.

#include <QObject>

#include <cstdint>
#include <memory>
#include <vector>

#include "clusterlens/dataset.hpp"
#include "jobs/job_runner.hpp"
#include "scatter/scatter_data.hpp"

namespace clusterlens::views {

class ScatterWidget;

class ScatterController : public QObject {
    Q_OBJECT
public:
    /// Datasets up to this many points are prepared on the GUI thread (a few milliseconds);
    /// larger ones go through the job runner.
    static constexpr std::size_t inlineLimit = 100'000;

    ScatterController(JobRunner* runner, ScatterWidget* widget, QObject* parent = nullptr);

    /// New data shown with `axes` and `mode`. `sameRows`: the rows are the same points as before
    /// (a transform), so the selection survives.
    void setDataset(std::shared_ptr<const Dataset> dataset, const ScatterAxes& axes, ColourMode mode, bool sameRows);
    void setAxes(const ScatterAxes& axes);
    void setColourMode(ColourMode mode);
    /// Labels to colour by (e.g. a dendrogram cut) and, optionally, their own colours and names; null
    /// labels return to the dataset's own labels.
    void setLabels(std::shared_ptr<const std::vector<std::int32_t>> labels,
                   std::shared_ptr<const LabelStyle> style = nullptr);

    /// Colours by the expression of feature `column` (marker mode).
    void setMarker(std::ptrdiff_t column);

    const ScatterAxes& axes() const { return m_axes; }
    ColourMode colourMode() const { return m_mode; }

Q_SIGNALS:
    /// The widget shows the current dataset/axes/colours.
    void ready();
    /// Preparing the points in place failed (a failed job is reported by the job runner instead).
    void failed(const QString& message);

private:
    void rebuild(bool keepView, bool keepSelection);

    JobRunner* m_runner;
    ScatterWidget* m_widget;
    std::shared_ptr<const Dataset> m_dataset;
    std::shared_ptr<const std::vector<std::int32_t>> m_labels;
    std::shared_ptr<const LabelStyle> m_style;
    ScatterAxes m_axes;
    ColourMode m_mode = ColourMode::Density;
    std::ptrdiff_t m_marker = -1;
};

}  // namespace clusterlens::views

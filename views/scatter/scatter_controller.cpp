#include "scatter/scatter_controller.hpp"

#include <exception>

#include "scatter/scatter_widget.hpp"

namespace clusterlens::views {

ScatterController::ScatterController(JobRunner* runner, ScatterWidget* widget, QObject* parent)
    : QObject(parent), m_runner(runner), m_widget(widget) {}

void ScatterController::setDataset(std::shared_ptr<const Dataset> dataset, const ScatterAxes& axes, ColourMode mode,
                                   bool sameRows) {
    m_dataset = std::move(dataset);
    m_axes = axes;
    m_mode = mode;
    if (!sameRows) {
        m_marker = -1;
        m_labels.reset();
        m_style.reset();
    }
    if (m_dataset && !axesValid(*m_dataset, m_axes)) m_axes = ScatterAxes{-1, 0, m_dataset->d > 1 ? 1u : 0u};
    rebuild(false, sameRows);
}

void ScatterController::setAxes(const ScatterAxes& axes) {
    if (axes == m_axes) return;
    m_axes = axes;
    rebuild(false, true);
}

void ScatterController::setColourMode(ColourMode mode) {
    if (mode == m_mode) return;
    m_mode = mode;
    rebuild(true, true);
}

void ScatterController::setMarker(std::ptrdiff_t column) {
    if (m_mode == ColourMode::Marker && column == m_marker) return;
    m_marker = column;
    m_mode = ColourMode::Marker;
    rebuild(true, true);
}

void ScatterController::setLabels(std::shared_ptr<const std::vector<std::int32_t>> labels,
                                  std::shared_ptr<const LabelStyle> style) {
    m_labels = std::move(labels);
    m_style = std::move(style);
    if (m_mode == ColourMode::Labels) rebuild(true, true);
}

void ScatterController::rebuild(bool keepView, bool keepSelection) {
    if (!m_dataset || !axesValid(*m_dataset, m_axes)) {
        m_runner->cancelSlot(QStringLiteral("scatter"));
        m_widget->setData(nullptr);
        return;
    }
    ScatterRequest request{m_dataset, m_axes, m_mode, m_labels, m_style, m_marker};
    const auto deliver = [this, keepView, keepSelection](std::shared_ptr<const ScatterData> data) {
        m_widget->setData(std::move(data), keepView, keepSelection);
        Q_EMIT ready();
    };
    if (m_dataset->n <= inlineLimit) {
        m_runner->cancelSlot(QStringLiteral("scatter"));
        try {
            deliver(std::make_shared<const ScatterData>(prepareScatter(request)));
        } catch (const std::exception& error) {
            Q_EMIT failed(QString::fromStdString(error.what()));
        }
        return;
    }
    m_runner->start<ScatterData>(
        this, QStringLiteral("scatter"), tr("Scatter density"),
        [request](JobControl& control) { return prepareScatter(request, &control); },
        [this, deliver](const JobOutcome<ScatterData>& outcome) {
            // A failed job is reported by the job runner, not again here.
            if (outcome.state == JobState::Finished) deliver(outcome.result);
        });
}

}  // namespace clusterlens::views

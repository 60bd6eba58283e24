#include "colour_strip_chooser.hpp"

#include <QHBoxLayout>
#include <QLabel>

#include <exception>

#include "analysis_session.hpp"
#include "colouring_combo.hpp"
#include "marker_scale.hpp"

namespace clusterlens::views {

ColourStripChooser::ColourStripChooser(AnalysisSession* analysis, QWidget* parent)
    : QWidget(parent), m_analysis(analysis) {
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(new QLabel(tr("Strips:"), this));
    for (std::size_t slot = 0; slot < m_combos.size(); ++slot) {
        auto* combo = new ColouringCombo(tr("None"), this);
        // Three strips side by side fit a narrow column; the popup shows long names in full.
        combo->setMinimumContentsLength(5);
        combo->setToolTip(tr("Colour strip %1: a labeling, the populations or a marker").arg(slot + 1));
        combo->setLabelings(m_analysis->labelingNames());
        connect(combo, &ColouringCombo::colouringChosen, this, &ColourStripChooser::rebuild);
        row->addWidget(combo, 1);
        m_combos[slot] = combo;
    }
    connect(m_analysis, &AnalysisSession::labelingsChanged, this, [this] {
        for (ColouringCombo* combo : m_combos) combo->setLabelings(m_analysis->labelingNames());
        rebuild();
    });
}

void ColourStripChooser::setDataset(std::shared_ptr<const Dataset> dataset) {
    m_dataset = std::move(dataset);
    for (ColouringCombo* combo : m_combos) combo->setDataset(m_dataset);
    rebuild();
}

void ColourStripChooser::setStrip(int slot, ColourMode mode, const QString& name) {
    if (slot < 0 || slot >= maxColourStrips) return;
    m_combos[static_cast<std::size_t>(slot)]->setColouring(mode, name);
    rebuild();
}

void ColourStripChooser::rebuild() {
    ColourStrips strips;
    for (ColouringCombo* combo : m_combos) {
        const QString name = combo->name();
        if (combo->mode() == ColourMode::Labels) {
            const auto labels = m_analysis->labeling(name);
            if (labels) strips.push_back(labelingStrip(name, *labels, m_analysis->labelingStyle(name).get()));
        } else if (combo->mode() == ColourMode::Marker && m_dataset) {
            const std::ptrdiff_t column = markerColumn(*m_dataset, name);
            if (column >= 0) strips.push_back(markerStrip(*m_dataset, static_cast<std::size_t>(column)));
        }
    }
    const bool changed = !(strips.empty() && m_strips->empty());
    m_strips = std::make_shared<const ColourStrips>(std::move(strips));
    if (changed) Q_EMIT stripsChanged();
}

}  // namespace clusterlens::views

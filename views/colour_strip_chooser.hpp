#pragma once
// The "Strips" row of a view's panel: up to three ColouringCombo boxes, each choosing nothing, a
// labeling or population set of the AnalysisSession, or a marker of the dataset. It keeps the
// chosen strips' colours current (a new cut under the same name, recoloured populations, another
// transform) and says when they changed; the view draws them on screen and in its figure.

#include <QWidget>

#include <array>
#include <memory>

#include "clusterlens/dataset.hpp"
#include "colour_strips.hpp"

namespace clusterlens::views {

class AnalysisSession;
class ColouringCombo;

class ColourStripChooser : public QWidget {
    Q_OBJECT
public:
    explicit ColourStripChooser(AnalysisSession* analysis, QWidget* parent = nullptr);

    /// The dataset whose markers are offered and whose rows the strips colour.
    void setDataset(std::shared_ptr<const Dataset> dataset);
    /// Chooses strip `slot` (0..2): mode Density = none, Labels = a labeling, Marker = a feature.
    void setStrip(int slot, ColourMode mode, const QString& name);
    ColouringCombo* combo(int slot) const { return m_combos[static_cast<std::size_t>(slot)]; }

    /// The chosen strips, in slot order, empty slots left out; each has a colour per dataset row.
    std::shared_ptr<const ColourStrips> strips() const { return m_strips; }

Q_SIGNALS:
    void stripsChanged();

private:
    void rebuild();

    AnalysisSession* m_analysis;
    std::shared_ptr<const Dataset> m_dataset;
    std::array<ColouringCombo*, maxColourStrips> m_combos{};
    std::shared_ptr<const ColourStrips> m_strips = std::make_shared<const ColourStrips>();
};

}  // namespace clusterlens::views

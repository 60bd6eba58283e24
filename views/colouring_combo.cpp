#include "colouring_combo.hpp"

#include <utility>

#include "scatter/scatter_figure.hpp"

namespace clusterlens::views {

namespace {

constexpr int kModeRole = Qt::UserRole;
constexpr int kNameRole = Qt::UserRole + 1;

}  // namespace

ColouringCombo::ColouringCombo(const QString& firstText, QWidget* parent) : QComboBox(parent), m_firstText(firstText) {
    // Long marker names must not widen a dock; the popup still shows them in full.
    setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    setMinimumContentsLength(10);
    rebuild();
    connect(this, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_updating) Q_EMIT colouringChosen(mode(), name());
    });
}

void ColouringCombo::setDataset(std::shared_ptr<const Dataset> dataset) {
    m_dataset = std::move(dataset);
    rebuild();
}

void ColouringCombo::setLabelings(const QStringList& names) {
    if (names == m_labelings) return;
    m_labelings = names;
    rebuild();
}

void ColouringCombo::rebuild() {
    const ColourMode keptMode = count() > 0 ? mode() : ColourMode::Density;
    const QString keptName = count() > 0 ? name() : QString();
    const bool wasUpdating = std::exchange(m_updating, true);
    clear();
    addItem(m_firstText);
    setItemData(0, static_cast<int>(ColourMode::Density), kModeRole);
    const auto add = [this](const QString& text, ColourMode itemMode, const QString& itemName) {
        addItem(text);
        setItemData(count() - 1, static_cast<int>(itemMode), kModeRole);
        setItemData(count() - 1, itemName, kNameRole);
        setItemData(count() - 1, text, Qt::ToolTipRole);
    };
    if (!m_labelings.isEmpty()) insertSeparator(count());
    for (const QString& labeling : m_labelings) add(labeling, ColourMode::Labels, labeling);
    if (m_dataset && m_dataset->d > 0) insertSeparator(count());
    for (std::size_t j = 0; m_dataset && j < m_dataset->d; ++j)
        add(markerAxisTitle(*m_dataset, ScatterAxes{-1, j, j}, false), ColourMode::Marker,
            QString::fromStdString(m_dataset->features[j]));
    setColouring(keptMode, keptName);
    m_updating = wasUpdating;
}

void ColouringCombo::setColouring(ColourMode itemMode, const QString& itemName) {
    const bool wasUpdating = std::exchange(m_updating, true);
    int index = 0;
    for (int i = 1; i < count() && itemMode != ColourMode::Density; ++i)
        if (itemData(i, kModeRole).toInt() == static_cast<int>(itemMode) &&
            itemData(i, kNameRole).toString() == itemName)
            index = i;
    setCurrentIndex(index);
    m_updating = wasUpdating;
}

ColourMode ColouringCombo::mode() const {
    const QVariant value = itemData(currentIndex(), kModeRole);
    return value.isValid() ? static_cast<ColourMode>(value.toInt()) : ColourMode::Density;
}

QString ColouringCombo::name() const {
    return itemData(currentIndex(), kNameRole).toString();
}

}  // namespace clusterlens::views

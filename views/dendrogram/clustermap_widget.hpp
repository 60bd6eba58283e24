#pragma once
// The clustermap band under the interactive dendrogram (clustermap.hpp): its columns follow the
// dendrogram widget's plot and leaf window, so they stay under their subtrees while the tree is
// panned and zoomed (it repaints whenever the dendrogram does). Hidden when there is nothing to show.

#include <QWidget>

#include <memory>

#include "dendrogram/clustermap.hpp"

namespace clusterlens::views {

class DendrogramWidget;

class ClustermapWidget : public QWidget {
    Q_OBJECT
public:
    ClustermapWidget(DendrogramWidget* dendrogram, QWidget* parent = nullptr);

    /// Shows `map` (null hides the band).
    void setClustermap(std::shared_ptr<const Clustermap> map);
    const std::shared_ptr<const Clustermap>& clustermap() const { return m_map; }
    /// The cells' rectangle in this widget's coordinates (under the dendrogram's plot).
    QRectF bandRect() const;

    /// A text line per marker; squeezed down to kMinRowHeight per marker when the dock is short.
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    static constexpr int kMinRowHeight = 6;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;

private:
    DendrogramWidget* m_dendrogram;
    std::shared_ptr<const Clustermap> m_map;
};

}  // namespace clusterlens::views

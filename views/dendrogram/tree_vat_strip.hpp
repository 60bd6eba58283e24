#pragma once
// The iVAT image of a VAT run in the leaf order of the dendrogram above it (Issue "iVAT in any tree's
// order"): rows and columns are the tree's leaf ranks, the leaves in the dendrogram's leaf window lie at
// the same x as in the tree, and the image is that window's square of the matrix, so a cluster of the
// tree that is a dark block shows as one right under its subtree. It follows the tree's pan and zoom (it
// repaints whenever the dendrogram does) and renders on the CPU through the engine's render source
// (clusterlens/vat/viewport.hpp, makeVatRenderSourceInOrder), never an N×N matrix.

#include <QImage>
#include <QString>
#include <QWidget>

#include <memory>

#include "clusterlens/vat/viewport.hpp"
#include "vat/vat_image.hpp"

namespace clusterlens::views {

class DendrogramWidget;

class TreeVatStrip : public QWidget {
    Q_OBJECT
public:
    TreeVatStrip(DendrogramWidget* dendrogram, QWidget* parent = nullptr);

    /// The matrix to show: a render source whose row r is the point at leaf rank r of the dendrogram's
    /// tree (null: none, the status text is shown instead).
    void setSource(std::shared_ptr<const VatRenderSource> source);
    const std::shared_ptr<const VatRenderSource>& source() const { return m_source; }
    /// A line shown instead of the image (a VAT order being computed, or why there is none).
    void setStatus(const QString& text);
    const QString& status() const { return m_status; }

    /// Where the image goes in this widget: under the dendrogram's plot, the leaves [0, n) of its
    /// window (clipped to the tree) across, as tall as wide where the widget allows. Empty without a source.
    QRectF imageRect() const;
    /// The image last drawn: its viewport (positions are leaf ranks), distances and contrast levels.
    const VatImage& image() const { return m_image; }

    QSize sizeHint() const override { return {320, 320}; }
    QSize minimumSizeHint() const override { return {120, 80}; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;

private:
    /// Renders the image for the dendrogram's current window and imageRect() (when they changed).
    void render(const QRectF& rect);

    DendrogramWidget* m_dendrogram;
    std::shared_ptr<const VatRenderSource> m_source;
    QString m_status;
    VatImage m_image;
    QImage m_coloured;
};

}  // namespace clusterlens::views

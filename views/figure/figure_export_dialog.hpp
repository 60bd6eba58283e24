#pragma once
// The one figure export dialog of every view: format (PNG, TIFF, SVG, PDF), size in millimetres or
// pixels with journal presets (85 mm single column, 120 mm one and a half, 180 mm double), the
// resolution of raster files, title and axis labels, font scale, legend position, palette,
// background, the whole figure or only the part in view; "Copy to clipboard" and "Copy methods
// text". The view describes itself in a FigureExportSource; the dialog writes the file with the
// provenance (command, data hashes, version) in its metadata. Every choice has a setter, so tests
// and scripts drive the dialog without clicking.

#include <QDialog>

#include "figure/figure_export_source.hpp"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace clusterlens::views {

class FigureExportDialog : public QDialog {
    Q_OBJECT
public:
    /// Journal widths offered as presets, in millimetres.
    static constexpr double singleColumnMm = 85.0;
    static constexpr double oneAndHalfColumnMm = 120.0;
    static constexpr double doubleColumnMm = 180.0;

    FigureExportDialog(FigureExportSource source, QWidget* parent = nullptr);

    QString path() const;
    /// Size, dpi and the provenance of a figure written to path().
    FigureExportOptions options() const;
    FigureStyle style() const;
    bool currentViewOnly() const;
    /// The figure as it will be written (style applied); null when the view has none now.
    std::unique_ptr<Figure> figure() const;

    void setPath(const QString& path);
    /// "png", "tif", "svg" or "pdf": the path's extension follows.
    void setFormat(const QString& suffix);
    void setSizeMillimetres(double width, double height);
    /// A width in millimetres, the height from the figure's own aspect ratio (as the presets do).
    void setWidthMillimetres(double width);
    void setSizePixels(int width, int height);
    void setDpi(int dpi);
    void setTitleText(const QString& title);
    void setAxisLabels(const QString& x, const QString& y);
    void setFontScale(double scale);
    void setLegendPosition(LegendPosition position);
    void setPalette(PaletteKind palette);
    void setTransparent(bool transparent);
    void setViewOnly(bool viewOnly);

    /// Writes the file with the current choices; false with `error` set when it cannot.
    bool exportNow(QString* error);
    /// Puts the figure on the clipboard as an image at the chosen pixel size.
    void copyToClipboard();
    /// Puts the view's methods paragraph on the clipboard.
    void copyMethods();

    const FigureExportSource& source() const { return m_source; }

private:
    QWidget* buildFileRow();
    QWidget* buildSizeRows();
    QWidget* buildTextRows();
    void browse();
    void applyPreset(int index);
    void formatChosen();
    void pathEdited();
    void unitChosen();
    void updateEnabled();
    void accept() override;

    FigureExportSource m_source;
    double m_aspect = 0.75;  // height / width of the figure's own size
    QLineEdit* m_path;
    QComboBox* m_format;
    QComboBox* m_preset;
    QComboBox* m_unit;
    QDoubleSpinBox* m_width;
    QDoubleSpinBox* m_height;
    QSpinBox* m_dpi;
    QLineEdit* m_title;
    QLineEdit* m_xLabel;
    QLineEdit* m_yLabel;
    QDoubleSpinBox* m_fontScale;
    QComboBox* m_legend;
    QComboBox* m_palette;
    QComboBox* m_background;
    QCheckBox* m_viewOnly;
    QPushButton* m_methodsButton;
};

/// Shows the dialog for `source`; on Export writes the file (a failure is shown and the dialog
/// stays open). Returns the path written, empty when the user cancelled.
QString runFigureExportDialog(const FigureExportSource& source, QWidget* parent);

}  // namespace clusterlens::views

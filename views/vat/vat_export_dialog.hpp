#pragma once
// Asks where and how to export the VAT/iVAT figure: file (PNG, PDF or SVG by extension), size (pixels
// for PNG, where the image is rendered at that size; points for PDF/SVG), resolution of a PNG's text,
// and whether only the part in view is drawn.

#include <QDialog>

#include "figure/figure.hpp"

class QCheckBox;
class QLineEdit;
class QSpinBox;

namespace clusterlens::views {

class VatExportDialog : public QDialog {
    Q_OBJECT
public:
    VatExportDialog(const QString& suggestedPath, QSize defaultSize, QWidget* parent = nullptr);

    QString path() const;
    FigureExportOptions options() const;
    bool currentViewOnly() const;

private:
    void browse();
    void updateUnits();

    QLineEdit* m_path;
    QSpinBox* m_width;
    QSpinBox* m_height;
    QSpinBox* m_dpi;
    QCheckBox* m_viewOnly;
};

}  // namespace clusterlens::views

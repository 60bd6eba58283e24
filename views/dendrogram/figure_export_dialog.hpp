#pragma once
// Asks where and how to export a figure: file (SVG, PDF or PNG by extension), size (points for
// SVG/PDF, pixels for PNG), resolution of a PNG, and whether only the part in view is drawn.

#include <QDialog>

#include "figure/figure.hpp"

class QCheckBox;
class QLineEdit;
class QSpinBox;

namespace clusterlens::views {

class FigureExportDialog : public QDialog {
    Q_OBJECT
public:
    FigureExportDialog(const QString& suggestedPath, QSize defaultSize, QWidget* parent = nullptr);

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

#pragma once
// Asks where and how to export a figure: file (SVG, PDF or PNG by extension), size (points for
// SVG/PDF, pixels for PNG), resolution of a PNG, and whether only the part in view is drawn. Every
// view's export uses it; the wording that differs between views comes in FigureExportTexts.

#include <QDialog>

#include "figure/figure.hpp"

class QCheckBox;
class QLineEdit;
class QSpinBox;

namespace clusterlens::views {

/// The view-specific wording of the dialog.
struct FigureExportTexts {
    QString title;         ///< window and file-chooser title, e.g. "Export figure"
    QString viewOnly;      ///< the check box, e.g. "Only the leaves in view"
    QString dpiToolTip;    ///< what the resolution does for a PNG of this view
    QString fileFilter;    ///< file-chooser filter, the preferred format first
    int minimumSide = 50;  ///< smallest width/height accepted
};

class FigureExportDialog : public QDialog {
    Q_OBJECT
public:
    FigureExportDialog(const QString& suggestedPath, QSize defaultSize, const FigureExportTexts& texts,
                       QWidget* parent = nullptr);

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
    QString m_title;
    QString m_fileFilter;
};

}  // namespace clusterlens::views

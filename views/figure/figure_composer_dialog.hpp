#pragma once
// The multi-panel figure composer: pick views among those that have a figure now, choose how many
// panels go in a row, and export them as one figure with panel letters A, B, C… through the figure
// export dialog (one PDF, SVG, PNG or TIFF at a journal width, double column by default). The
// provenance lists each panel's command after its letter and the hashes of all data files.

#include <QDialog>

#include <vector>

#include "figure/figure_export_source.hpp"

class QListWidget;
class QSpinBox;

namespace clusterlens::views {

class FigureComposerDialog : public QDialog {
    Q_OBJECT
public:
    /// `sources`: every view's export source; those without a figure now are listed disabled.
    explicit FigureComposerDialog(std::vector<FigureExportSource> sources, QWidget* parent = nullptr);

    /// Checks exactly the views at `indices` (positions in the sources given).
    void setChosen(const std::vector<std::size_t>& indices);
    std::vector<std::size_t> chosen() const;
    void setColumns(int columns);
    int columns() const;
    /// The chosen panels as one export source (invalid when none is chosen).
    FigureExportSource composedSource() const;
    /// The file the export dialog wrote (empty before one).
    const QString& writtenPath() const { return m_written; }

private:
    void accept() override;

    std::vector<FigureExportSource> m_sources;
    QListWidget* m_list;
    QSpinBox* m_columns;
    QString m_written;
};

/// Shows the composer; on OK opens the export dialog for the composed figure. Returns the path
/// written, empty when cancelled.
QString runFigureComposer(std::vector<FigureExportSource> sources, QWidget* parent);

}  // namespace clusterlens::views

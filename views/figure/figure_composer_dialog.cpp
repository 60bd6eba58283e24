#include "figure/figure_composer_dialog.hpp"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include "figure/composed_figure.hpp"
#include "figure/figure_export_dialog.hpp"

namespace clusterlens::views {

namespace {

/// "A: COMMAND" per panel that has a command, one a line: the panel's command (with its part in view
/// when `viewOnly`) writing NAME_A.SUFFIX beside `path` at the size and in the style it has in the
/// composed figure that `options` and `style` export.
QString panelCommands(const std::vector<FigureExportSource>& panels, int perRow, const QString& path,
                      const FigureExportOptions& options, const FigureStyle& style, bool viewOnly) {
    std::vector<std::unique_ptr<Figure>> figures;
    std::vector<std::size_t> drawn;  // the panels the composed figure draws (it skips those without a figure)
    for (std::size_t i = 0; i < panels.size(); ++i) {
        figures.push_back(panels[i].figure(viewOnly));
        if (figures.back()) drawn.push_back(i);
    }
    ComposedFigure composed(std::move(figures), perRow);
    composed.setStyle(style);
    // The export's logical area, and the requested units (mm or pixels) per logical pixel.
    const FigureGeometry geometry = figureGeometry(composed, options);
    const QFileInfo file(path);
    const QString suffix = file.suffix().toLower();
    const bool mm = options.unit == FigureUnit::Millimetres;
    const bool raster = suffix != QLatin1String("svg") && suffix != QLatin1String("pdf");
    const QSizeF logical = mm || raster ? geometry.logical : QSizeF(geometry.pixels);
    const double perLogical = mm ? 25.4 / 96.0 : raster ? options.dpi / 96.0 : 1.0;
    QStringList commands;
    for (std::size_t k = 0; k < drawn.size(); ++k) {
        const QString letter = ComposedFigure::panelLetter(k);
        FigureExportOptions panel = options;
        panel.size = composed.panelRect(QRectF(QPointF(0, 0), logical), k).size() * perLogical;
        const QString out =
            file.dir().filePath(file.completeBaseName() + QLatin1Char('_') + letter + QLatin1Char('.') + file.suffix());
        const FigureExportSource& source = panels[drawn[k]];
        const QString command = regenerateShellText(source, (viewOnly ? source.viewOptions : QStringList()) +
                                                                plotOptionWords(out, panel, composed.panelStyle()));
        if (!command.isEmpty()) commands << letter + QStringLiteral(": ") + command;
    }
    return commands.join(QLatin1Char('\n'));
}

}  // namespace

FigureComposerDialog::FigureComposerDialog(std::vector<FigureExportSource> sources, QWidget* parent)
    : QDialog(parent), m_sources(std::move(sources)), m_list(new QListWidget(this)), m_columns(new QSpinBox(this)) {
    setWindowTitle(tr("Compose a figure"));
    setObjectName(QStringLiteral("FigureComposerDialog"));
    for (const FigureExportSource& source : m_sources) {
        auto* item = new QListWidgetItem(source.name.isEmpty() ? source.title : source.name, m_list);
        item->setFlags(source.isValid() ? Qt::ItemIsEnabled | Qt::ItemIsUserCheckable : Qt::ItemIsUserCheckable);
        item->setCheckState(source.isValid() ? Qt::Checked : Qt::Unchecked);
        if (!source.isValid()) item->setToolTip(tr("This view has nothing to show yet."));
    }
    m_columns->setRange(1, 6);
    m_columns->setValue(2);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Export\u2026"));
    connect(buttons, &QDialogButtonBox::accepted, this, &FigureComposerDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("Panels, in reading order (letters A, B, C\u2026):"), this));
    layout->addWidget(m_list);
    auto* form = new QFormLayout;
    form->addRow(tr("Panels per row"), m_columns);
    layout->addLayout(form);
    layout->addWidget(buttons);
}

void FigureComposerDialog::setChosen(const std::vector<std::size_t>& indices) {
    for (int row = 0; row < m_list->count(); ++row) m_list->item(row)->setCheckState(Qt::Unchecked);
    for (std::size_t i : indices)
        if (i < m_sources.size() && m_sources[i].isValid())
            m_list->item(static_cast<int>(i))->setCheckState(Qt::Checked);
}

std::vector<std::size_t> FigureComposerDialog::chosen() const {
    std::vector<std::size_t> indices;
    for (int row = 0; row < m_list->count(); ++row)
        if (m_list->item(row)->checkState() == Qt::Checked) indices.push_back(static_cast<std::size_t>(row));
    return indices;
}

void FigureComposerDialog::setColumns(int columns) {
    m_columns->setValue(columns);
}
int FigureComposerDialog::columns() const {
    return m_columns->value();
}

FigureExportSource FigureComposerDialog::composedSource() const {
    std::vector<FigureExportSource> panels;
    for (std::size_t i : chosen()) panels.push_back(m_sources[i]);
    FigureExportSource composed;
    if (panels.empty()) return composed;
    const int perRow = columns();
    composed.title = tr("Export composed figure");
    composed.name = tr("Composed figure");
    composed.suggestedName = QStringLiteral("figure");
    composed.viewOnly = tr("Only what is in view, in each panel that has a view");
    composed.figure = [panels, perRow](bool viewOnly) -> std::unique_ptr<Figure> {
        std::vector<std::unique_ptr<Figure>> figures;
        for (const FigureExportSource& panel : panels) figures.push_back(panel.figure(viewOnly));
        return std::make_unique<ComposedFigure>(std::move(figures), perRow);
    };
    composed.commandOf = [panels, perRow](const QString& path, const FigureExportOptions& options,
                                          const FigureStyle& style, bool viewOnly) {
        return panelCommands(panels, perRow, path, options, style, viewOnly);
    };
    QStringList methods;
    for (std::size_t i = 0; i < panels.size(); ++i) {
        if (!panels[i].methods.isEmpty())
            methods << ComposedFigure::panelLetter(i) + QStringLiteral(". ") + panels[i].methods;
        for (const QString& file : panels[i].dataFiles)
            if (!composed.dataFiles.contains(file)) composed.dataFiles << file;
    }
    composed.methods = methods.join(QStringLiteral("\n\n"));
    return composed;
}

void FigureComposerDialog::accept() {
    const FigureExportSource source = composedSource();
    if (!source.isValid()) return;
    FigureExportDialog exportDialog(source, this);
    exportDialog.setWidthMillimetres(FigureExportDialog::doubleColumnMm);
    if (exportDialog.exec() == QDialog::Accepted) {
        m_written = exportDialog.path();
        QDialog::accept();
    }
}

QString runFigureComposer(std::vector<FigureExportSource> sources, QWidget* parent) {
    FigureComposerDialog dialog(std::move(sources), parent);
    return dialog.exec() == QDialog::Accepted ? dialog.writtenPath() : QString();
}

}  // namespace clusterlens::views

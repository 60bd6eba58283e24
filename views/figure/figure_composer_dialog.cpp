#include "figure/figure_composer_dialog.hpp"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include "figure/composed_figure.hpp"
#include "figure/figure_export_dialog.hpp"

namespace clusterlens::views {

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
    QStringList commands, methods;
    for (std::size_t i = 0; i < panels.size(); ++i) {
        const QString letter = ComposedFigure::panelLetter(i);
        const QString command = regenerateShellText(panels[i]);
        if (!command.isEmpty()) commands << letter + QStringLiteral(": ") + command;
        if (!panels[i].methods.isEmpty()) methods << letter + QStringLiteral(". ") + panels[i].methods;
        for (const QString& file : panels[i].dataFiles)
            if (!composed.dataFiles.contains(file)) composed.dataFiles << file;
    }
    composed.fixedCommand = commands.join(QLatin1Char('\n'));
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

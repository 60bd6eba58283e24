#include "figure/figure_export_dialog.hpp"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

namespace clusterlens::views {

FigureExportDialog::FigureExportDialog(const QString& suggestedPath, QSize defaultSize,
                                       const FigureExportTexts& texts, QWidget* parent)
    : QDialog(parent),
      m_path(new QLineEdit(suggestedPath, this)),
      m_width(new QSpinBox(this)),
      m_height(new QSpinBox(this)),
      m_dpi(new QSpinBox(this)),
      m_viewOnly(new QCheckBox(texts.viewOnly, this)),
      m_title(texts.title),
      m_fileFilter(texts.fileFilter) {
    setWindowTitle(m_title);
    for (QSpinBox* box : {m_width, m_height}) box->setRange(texts.minimumSide, 20000);
    m_width->setValue(defaultSize.width());
    m_height->setValue(defaultSize.height());
    m_dpi->setRange(10, 2400);
    m_dpi->setValue(96);
    m_dpi->setSuffix(tr(" dpi"));
    m_dpi->setToolTip(texts.dpiToolTip);
    auto* browseButton = new QPushButton(tr("Browse\u2026"), this);
    connect(browseButton, &QPushButton::clicked, this, &FigureExportDialog::browse);
    connect(m_path, &QLineEdit::textChanged, this, &FigureExportDialog::updateUnits);
    auto* file = new QHBoxLayout;
    file->addWidget(m_path, 1);
    file->addWidget(browseButton);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* form = new QFormLayout(this);
    form->addRow(tr("File"), file);
    form->addRow(tr("Width"), m_width);
    form->addRow(tr("Height"), m_height);
    form->addRow(tr("Resolution"), m_dpi);
    form->addRow(QString(), m_viewOnly);
    form->addRow(buttons);
    updateUnits();
}

QString FigureExportDialog::path() const {
    return m_path->text();
}

FigureExportOptions FigureExportDialog::options() const {
    FigureExportOptions options;
    options.size = QSize(m_width->value(), m_height->value());
    options.dpi = m_dpi->value();
    return options;
}

bool FigureExportDialog::currentViewOnly() const {
    return m_viewOnly->isChecked();
}

void FigureExportDialog::browse() {
    const QString path = QFileDialog::getSaveFileName(this, m_title, m_path->text(), m_fileFilter);
    if (!path.isEmpty()) m_path->setText(path);
}

void FigureExportDialog::updateUnits() {
    const bool png = QFileInfo(m_path->text()).suffix().compare(QLatin1String("png"), Qt::CaseInsensitive) == 0;
    const QString unit = png ? tr(" px") : tr(" pt");
    m_width->setSuffix(unit);
    m_height->setSuffix(unit);
    m_dpi->setEnabled(png);
}

}  // namespace clusterlens::views

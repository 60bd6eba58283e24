#include "figure/figure_export_dialog.hpp"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>

#include <cmath>

#include "clusterlens/errors.hpp"
#include "export_folder.hpp"

namespace clusterlens::views {

namespace {

const QStringList kSuffixes = {QStringLiteral("png"), QStringLiteral("tif"), QStringLiteral("svg"),
                               QStringLiteral("pdf")};
constexpr double kPresetsMm[] = {0.0, FigureExportDialog::singleColumnMm, FigureExportDialog::oneAndHalfColumnMm,
                                 FigureExportDialog::doubleColumnMm};

bool isRasterSuffix(const QString& suffix) {
    return suffix == QLatin1String("png") || suffix == QLatin1String("tif") || suffix == QLatin1String("tiff");
}

QString formatSuffix(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    return suffix == QLatin1String("tiff") ? QStringLiteral("tif") : suffix;
}

}  // namespace

FigureExportDialog::FigureExportDialog(FigureExportSource source, QWidget* parent)
    : QDialog(parent),
      m_source(std::move(source)),
      m_path(new QLineEdit(this)),
      m_format(new QComboBox(this)),
      m_preset(new QComboBox(this)),
      m_unit(new QComboBox(this)),
      m_width(new QDoubleSpinBox(this)),
      m_height(new QDoubleSpinBox(this)),
      m_dpi(new QSpinBox(this)),
      m_title(new QLineEdit(this)),
      m_xLabel(new QLineEdit(this)),
      m_yLabel(new QLineEdit(this)),
      m_fontScale(new QDoubleSpinBox(this)),
      m_legend(new QComboBox(this)),
      m_palette(new QComboBox(this)),
      m_background(new QComboBox(this)),
      m_viewOnly(new QCheckBox(m_source.viewOnly, this)),
      m_methodsButton(new QPushButton(tr("Copy &methods text"), this)) {
    setWindowTitle(m_source.title.isEmpty() ? tr("Export figure") : m_source.title);
    setObjectName(QStringLiteral("FigureExportDialog"));
    if (const auto own = m_source.isValid() ? m_source.figure(false) : nullptr) {
        m_aspect = static_cast<double>(own->defaultSize().height()) / std::max(1, own->defaultSize().width());
        m_title->setText(own->title());
    }
    m_viewOnly->setVisible(!m_source.viewOnly.isEmpty());
    m_methodsButton->setEnabled(!m_source.methods.isEmpty());
    m_methodsButton->setToolTip(m_source.methods);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    buttons->addButton(tr("&Export"), QDialogButtonBox::AcceptRole)->setDefault(true);
    QPushButton* clipboard = buttons->addButton(tr("Copy to &clipboard"), QDialogButtonBox::ActionRole);
    buttons->addButton(m_methodsButton, QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::accepted, this, &FigureExportDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(clipboard, &QPushButton::clicked, this, &FigureExportDialog::copyToClipboard);
    connect(m_methodsButton, &QPushButton::clicked, this, &FigureExportDialog::copyMethods);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(buildFileRow());
    layout->addWidget(buildSizeRows());
    layout->addWidget(buildTextRows());
    layout->addWidget(m_viewOnly);
    layout->addWidget(buttons);

    const QString dir = lastExportFolder();
    setPath(QDir(dir).filePath((m_source.suggestedName.isEmpty() ? QStringLiteral("figure") : m_source.suggestedName) +
                               QStringLiteral(".png")));
    setWidthMillimetres(singleColumnMm);
}

QWidget* FigureExportDialog::buildTextRows() {
    m_xLabel->setPlaceholderText(tr("as in the view"));
    m_yLabel->setPlaceholderText(tr("as in the view"));
    m_fontScale->setRange(0.5, 3.0);
    m_fontScale->setSingleStep(0.1);
    m_fontScale->setValue(1.0);
    m_fontScale->setSuffix(QStringLiteral(" \u00d7"));
    for (const QString& name : legendPositionNames()) m_legend->addItem(name, name);
    m_palette->addItem(tr("Tableau (as on screen)"), Palette::paletteName(PaletteKind::Tableau));
    m_palette->addItem(tr("Okabe\u2013Ito (colour-blind safe)"), Palette::paletteName(PaletteKind::OkabeIto));
    m_palette->addItem(tr("viridis"), Palette::paletteName(PaletteKind::Viridis));
    m_background->addItem(tr("White"));
    m_background->addItem(tr("Transparent"));
    auto* text = new QGroupBox(tr("Text and look"), this);
    auto* textForm = new QFormLayout(text);
    textForm->addRow(tr("Title"), m_title);
    textForm->addRow(tr("Horizontal axis"), m_xLabel);
    textForm->addRow(tr("Vertical axis"), m_yLabel);
    textForm->addRow(tr("Font size"), m_fontScale);
    textForm->addRow(tr("Legend"), m_legend);
    textForm->addRow(tr("Palette"), m_palette);
    textForm->addRow(tr("Background"), m_background);
    return text;
}

QWidget* FigureExportDialog::buildFileRow() {
    auto* box = new QGroupBox(tr("File"), this);
    auto* browse = new QPushButton(tr("Browse\u2026"), box);
    connect(browse, &QPushButton::clicked, this, &FigureExportDialog::browse);
    m_format->addItem(tr("PNG image"), QStringLiteral("png"));
    m_format->addItem(tr("TIFF image"), QStringLiteral("tif"));
    m_format->addItem(tr("SVG vector figure"), QStringLiteral("svg"));
    m_format->addItem(tr("PDF vector figure"), QStringLiteral("pdf"));
    connect(m_format, &QComboBox::currentIndexChanged, this, &FigureExportDialog::formatChosen);
    connect(m_path, &QLineEdit::textEdited, this, &FigureExportDialog::pathEdited);
    auto* row = new QHBoxLayout;
    row->addWidget(m_path, 1);
    row->addWidget(browse);
    auto* form = new QFormLayout(box);
    form->addRow(tr("Save as"), row);
    form->addRow(tr("Format"), m_format);
    return box;
}

QWidget* FigureExportDialog::buildSizeRows() {
    auto* box = new QGroupBox(tr("Size"), this);
    m_preset->addItem(tr("Custom"));
    m_preset->addItem(tr("Single column, 85 mm"));
    m_preset->addItem(tr("1.5 columns, 120 mm"));
    m_preset->addItem(tr("Double column, 180 mm"));
    connect(m_preset, &QComboBox::activated, this, &FigureExportDialog::applyPreset);
    m_unit->addItem(tr("mm"));
    m_unit->addItem(tr("pixels"));
    connect(m_unit, &QComboBox::currentIndexChanged, this, &FigureExportDialog::unitChosen);
    for (QDoubleSpinBox* side : {m_width, m_height}) {
        side->setRange(1.0, 20000.0);
        side->setDecimals(1);
        connect(side, &QDoubleSpinBox::editingFinished, this, [this] { m_preset->setCurrentIndex(0); });
    }
    m_dpi->setRange(10, 2400);
    m_dpi->setValue(600);
    m_dpi->setSuffix(tr(" dpi"));
    m_dpi->setToolTip(tr("Pixels per inch of PNG and TIFF files; journals ask for 300 to 600 (1200 for line art)."));
    auto* sides = new QHBoxLayout;
    sides->addWidget(m_width);
    sides->addWidget(new QLabel(QStringLiteral("\u00d7"), box));
    sides->addWidget(m_height);
    sides->addWidget(m_unit);
    auto* form = new QFormLayout(box);
    form->addRow(tr("Preset"), m_preset);
    form->addRow(tr("Width \u00d7 height"), sides);
    form->addRow(tr("Resolution"), m_dpi);
    return box;
}

QString FigureExportDialog::path() const {
    return m_path->text();
}

FigureExportOptions FigureExportDialog::options() const {
    const bool mm = m_unit->currentIndex() == 0;
    FigureExportOptions options(QSizeF(m_width->value(), m_height->value()), m_dpi->value(),
                                mm ? FigureUnit::Millimetres : FigureUnit::Pixels);
    options.provenance = provenanceOf(m_source, path(), options, style(), currentViewOnly());
    return options;
}

FigureStyle FigureExportDialog::style() const {
    FigureStyle style;
    style.title = m_title->text();
    style.xLabel = m_xLabel->text();
    style.yLabel = m_yLabel->text();
    style.fontScale = m_fontScale->value();
    style.legend = legendPositionFromName(m_legend->currentData().toString()).value_or(LegendPosition::Auto);
    style.palette = Palette::paletteFromName(m_palette->currentData().toString()).value_or(PaletteKind::Tableau);
    style.transparent = m_background->currentIndex() == 1;
    return style;
}

bool FigureExportDialog::currentViewOnly() const {
    return !m_source.viewOnly.isEmpty() && m_viewOnly->isChecked();
}

std::unique_ptr<Figure> FigureExportDialog::figure() const {
    if (!m_source.isValid()) return nullptr;
    std::unique_ptr<Figure> drawn = m_source.figure(currentViewOnly());
    if (drawn) drawn->setStyle(style());
    return drawn;
}

void FigureExportDialog::setPath(const QString& path) {
    m_path->setText(path);
    pathEdited();
}

void FigureExportDialog::setFormat(const QString& suffix) {
    const int index = m_format->findData(suffix == QLatin1String("tiff") ? QStringLiteral("tif") : suffix.toLower());
    if (index >= 0) m_format->setCurrentIndex(index);
    formatChosen();
}

void FigureExportDialog::setSizeMillimetres(double width, double height) {
    m_unit->setCurrentIndex(0);
    m_width->setValue(width);
    m_height->setValue(height);
    m_preset->setCurrentIndex(0);
}

void FigureExportDialog::setWidthMillimetres(double width) {
    setSizeMillimetres(width, std::round(width * m_aspect));
    for (int i = 1; i < m_preset->count(); ++i)
        if (kPresetsMm[i] == width) m_preset->setCurrentIndex(i);
}

void FigureExportDialog::setSizePixels(int width, int height) {
    m_unit->setCurrentIndex(1);
    m_width->setValue(width);
    m_height->setValue(height);
    m_preset->setCurrentIndex(0);
}

void FigureExportDialog::setDpi(int dpi) {
    m_dpi->setValue(dpi);
}
void FigureExportDialog::setTitleText(const QString& title) {
    m_title->setText(title);
}
void FigureExportDialog::setFontScale(double scale) {
    m_fontScale->setValue(scale);
}
void FigureExportDialog::setTransparent(bool transparent) {
    m_background->setCurrentIndex(transparent ? 1 : 0);
}
void FigureExportDialog::setViewOnly(bool viewOnly) {
    m_viewOnly->setChecked(viewOnly);
}

void FigureExportDialog::setAxisLabels(const QString& x, const QString& y) {
    m_xLabel->setText(x);
    m_yLabel->setText(y);
}

void FigureExportDialog::setLegendPosition(LegendPosition position) {
    m_legend->setCurrentIndex(m_legend->findData(legendPositionName(position)));
}

void FigureExportDialog::setPalette(PaletteKind palette) {
    m_palette->setCurrentIndex(m_palette->findData(Palette::paletteName(palette)));
}

bool FigureExportDialog::exportNow(QString* error) {
    const std::unique_ptr<Figure> drawn = figure();
    if (!drawn) {
        *error = tr("There is nothing to export yet.");
        return false;
    }
    try {
        exportFigure(*drawn, path(), options());
    } catch (const std::exception& e) {
        *error = QString::fromUtf8(e.what());
        return false;
    }
    rememberExportFolder(path());
    return true;
}

void FigureExportDialog::copyToClipboard() {
    const std::unique_ptr<Figure> drawn = figure();
    if (!drawn) return;
    try {
        FigureExportOptions raster = options();
        QApplication::clipboard()->setImage(renderFigureImage(*drawn, raster));
    } catch (const std::exception& e) {
        QMessageBox::warning(this, windowTitle(), QString::fromUtf8(e.what()));
    }
}

void FigureExportDialog::copyMethods() {
    if (!m_source.methods.isEmpty()) QApplication::clipboard()->setText(m_source.methods);
}

void FigureExportDialog::browse() {
    const QString filters =
        tr("PNG image (*.png);;TIFF image (*.tif *.tiff);;SVG vector figure (*.svg);;PDF vector figure (*.pdf)");
    QString selected =
        m_format->currentIndex() >= 0 ? filters.split(QStringLiteral(";;")).value(m_format->currentIndex()) : QString();
    const QString chosen = QFileDialog::getSaveFileName(this, windowTitle(), path(), filters, &selected);
    if (chosen.isEmpty()) return;
    setPath(chosen);
    if (!kSuffixes.contains(formatSuffix(chosen)))
        setFormat(kSuffixes.value(filters.split(QStringLiteral(";;")).indexOf(selected), QStringLiteral("png")));
}

void FigureExportDialog::applyPreset(int index) {
    if (index > 0 && index < static_cast<int>(std::size(kPresetsMm))) setWidthMillimetres(kPresetsMm[index]);
}

void FigureExportDialog::formatChosen() {
    const QString suffix = m_format->currentData().toString();
    const QFileInfo info(path());
    if (formatSuffix(path()) != suffix)
        m_path->setText(QDir(info.path()).filePath(info.completeBaseName() + QLatin1Char('.') + suffix));
    updateEnabled();
}

void FigureExportDialog::pathEdited() {
    const int index = m_format->findData(formatSuffix(path()));
    if (index >= 0 && index != m_format->currentIndex()) {
        const QSignalBlocker block(m_format);
        m_format->setCurrentIndex(index);
    }
    updateEnabled();
}

void FigureExportDialog::unitChosen() {
    // Keep the physical size when switching units: pixels at the chosen resolution.
    const double perMm = m_dpi->value() / 25.4;
    const bool toMm = m_unit->currentIndex() == 0;
    for (QDoubleSpinBox* side : {m_width, m_height})
        side->setValue(toMm ? side->value() / perMm : std::round(side->value() * perMm));
    for (QDoubleSpinBox* side : {m_width, m_height}) side->setDecimals(toMm ? 1 : 0);
    updateEnabled();
}

void FigureExportDialog::updateEnabled() {
    // Vector files have no resolution: a size in pixels gives them that many points.
    m_dpi->setEnabled(isRasterSuffix(formatSuffix(path())));
}

void FigureExportDialog::accept() {
    QString error;
    if (!exportNow(&error)) {
        QMessageBox::warning(this, windowTitle(), error);
        return;
    }
    QDialog::accept();
}

QString runFigureExportDialog(const FigureExportSource& source, QWidget* parent) {
    FigureExportDialog dialog(source, parent);
    return dialog.exec() == QDialog::Accepted ? dialog.path() : QString();
}

}  // namespace clusterlens::views

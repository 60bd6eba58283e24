#pragma once
// What a view hands the figure export dialog: its wording, how to draw its figure (the whole or
// the part in view), the command line that draws the same figure headless, the data files whose
// SHA-256 goes into the provenance, and the methods paragraph a paper can quote.

#include <QString>
#include <QStringList>

#include <functional>
#include <memory>

#include "clusterlens/dataset.hpp"
#include "figure/figure.hpp"

namespace clusterlens::views {

class AnalysisSession;
class ColourStripChooser;

struct FigureExportSource {
    QString title;          ///< the dialog's title, e.g. "Export decision graph"
    QString name;           ///< the view's name in lists, e.g. "Decision graph"
    QString suggestedName;  ///< file name without folder and extension, e.g. "decision_graph"
    QString viewOnly;       ///< the "what is in view" check box; empty: the view has no such choice
    /// Makes the figure: the part in view when asked and the view has one, else the whole.
    std::function<std::unique_ptr<Figure>(bool viewOnly)> figure;
    /// Commands that make the plot's input files, run before it (already quoted), e.g.
    /// "clusterlens-cli dpc data.fcs --dc-percent 2 --out DPC.csv"; empty when the plot reads the data.
    QString prelude;
    QStringList command;  ///< `clusterlens-cli plot KIND INPUT ...` without the output and style options
    /// `clusterlens-cli plot KIND --name NAME ...`: the same figure drawn from the result stored in a
    /// session, without --session and the output and style options. Used instead of prelude and command
    /// while figureSessionFile() names a session file; empty when the figure draws no stored result.
    QStringList sessionCommand;
    /// Options that make command and sessionCommand draw only the part in view (`--xlim A:B --ylim C:D`),
    /// added when the export is of the part in view; empty when they cannot.
    QStringList viewOptions;
    /// The provenance's command of an export to `path` with `options` and `style`, of the part in view
    /// when `viewOnly`, when set: a composed figure lists its panels' commands.
    std::function<QString(const QString& path, const FigureExportOptions& options, const FigureStyle& style,
                          bool viewOnly)>
        commandOf;
    QStringList dataFiles;  ///< hashed into every file's provenance
    QString methods;        ///< a methods paragraph (algorithm, parameters, papers); empty: none

    bool isValid() const { return static_cast<bool>(figure); }
};

/// The session file that holds every result the GUI shows, which figures name as their source
/// (`--session FILE --name NAME`); empty while the work is not saved or has changed since. Set by the
/// main window when the document's path or modified state changes.
void setFigureSessionFile(const QString& path);
QString figureSessionFile();

/// The command of `source` that regenerates its figure, without output and style options: the
/// session form while figureSessionFile() is set and the source has one, else its command.
QStringList regenerateCommand(const FigureExportSource& source);

/// regenerateCommand(source) and `options` as one shell line, after the source's prelude and " && "
/// when the command reads the files the prelude makes; empty when the source has no command.
QString regenerateShellText(const FigureExportSource& source, const QStringList& options = {});

/// The words that read `dataset` as the views see it: its file, then --compensate, --columns
/// (`columns` when given, else the columns the reading kept), --transform and --subsample as its
/// provenance records them.
QStringList datasetInputWords(const Dataset& dataset, const QStringList& columns = {});

/// The `--strip WHAT` words of `plot vat` and `plot dendrogram` (app/cli/plot/plot_strips.hpp) for the
/// strips `chooser` draws, in slot order: a labeling by its name (`sessionForm`) or as the file
/// resultFileName(name) names, the population set as `populations`, a marker as `marker:NAME`. Slots
/// whose labeling or marker does not exist are left out, as the chooser leaves their strips out.
QStringList stripWords(const ColourStripChooser& chooser, const AnalysisSession& analysis, const Dataset* dataset,
                       bool sessionForm);

/// A file name for a result the GUI holds in memory ("DPC (k=3)" -> "DPC_k3.csv"): the name the
/// command line expects the user to export it under.
QString resultFileName(const QString& name, const QString& suffix = QStringLiteral("csv"));

/// The `plot` options that reproduce `options` and `style` for the file `path`: --out, the size
/// (--width-mm/--height-mm or --width/--height), --dpi, and the style options that differ from
/// the defaults. The inverse of the command line's parsing (app/cli/plot/plot_options.cpp).
QStringList plotOptionWords(const QString& path, const FigureExportOptions& options, const FigureStyle& style);

/// The provenance of a figure from `source` written to `path`: the command with its output and
/// style options (and the source's viewOptions for the part in view), and the SHA-256 of every data
/// file that can be read (others are left out).
FigureProvenance provenanceOf(const FigureExportSource& source, const QString& path, const FigureExportOptions& options,
                              const FigureStyle& style, bool viewOnly = false);

}  // namespace clusterlens::views

#pragma once
// Where a figure came from, written into every exported file's metadata: the application and its
// version, the SHA-256 of each data file, and the `clusterlens-cli plot ...` command that draws the
// same figure again.

#include <QString>
#include <QStringList>

#include <utility>
#include <vector>

namespace clusterlens::views {

struct DataFileHash {
    QString path;    ///< as the user gave it
    QString sha256;  ///< 64 lowercase hex digits
};

struct FigureProvenance {
    QString title;                   ///< empty: the figure's title
    QString command;                 ///< the command line that regenerates the figure
    std::vector<DataFileHash> data;  ///< the files the figure was drawn from
};

/// "ClusterLens 0.1.0": the application and the version this build has.
QString applicationSignature();

/// The file's SHA-256 (engine's sha256File). Throws InvalidInput naming the file when unreadable.
DataFileHash hashDataFile(const QString& path);

/// A command line from its words, each quoted for a POSIX shell where it needs it.
QString shellCommand(const QStringList& words);

/// The metadata fields in the order written: Title, Software, Command, Data SHA-256 ("HASH  name"
/// per file, one per line, as sha256sum prints them). Empty fields are left out.
std::vector<std::pair<QString, QString>> provenanceFields(const FigureProvenance& provenance);

/// provenanceFields() as "Key: value" lines (TIFF's ImageDescription, the clipboard's text).
QString provenanceText(const FigureProvenance& provenance);

}  // namespace clusterlens::views

#pragma once
// Provenance into the bytes of each figure format, where each format keeps such text: PNG text
// chunks, an SVG <metadata> block (Dublin Core in RDF, as Inkscape writes it), the PDF document
// information dictionary, and TIFF's ImageDescription and Software tags (figure_tiff.hpp).

#include <QByteArray>
#include <QSize>
#include <QString>

#include "figure/figure_provenance.hpp"

namespace clusterlens::views {

/// `png` with one text chunk per provenance field after its IHDR chunk: tEXt when the text is
/// Latin-1, iTXt (UTF-8, uncompressed) otherwise. Throws InvalidInput when `png` is not a PNG.
QByteArray withPngText(const QByteArray& png, const FigureProvenance& provenance);

/// `svg` as QSvgGenerator writes it, with the root's width and height replaced by `width` and
/// `height` (e.g. "85mm"), and the document's <title>, <desc> and a <metadata> block after the root
/// tag (the generator must have written no title or description of its own).
QByteArray withSvgMetadata(const QByteArray& svg, const FigureProvenance& provenance, const QString& width,
                           const QString& height);

/// `pdf` as QPdfWriter writes it, its page of `written` whole points (QPageSize keeps points as
/// integers) declared `exact` points instead: the MediaBox numbers are rewritten in place, padded to
/// their old length, so every byte offset stays valid. The drawing must have been shifted by the
/// difference in height (QPdfWriter flips y about the whole-point height).
QByteArray withPdfMediaBox(const QByteArray& pdf, QSize written, QSizeF exact);

/// `pdf` (a complete file with a classic cross-reference table, as QPdfWriter writes it) with an
/// incremental update whose document information names Title, Subject (the command), Keywords
/// (the data hashes), Creator and Producer. Throws InvalidInput when the trailer cannot be read.
QByteArray withPdfInfo(const QByteArray& pdf, const FigureProvenance& provenance);

}  // namespace clusterlens::views

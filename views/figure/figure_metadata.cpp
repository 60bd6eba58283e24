#include "figure/figure_metadata.hpp"

#include <QDateTime>
#include <QRegularExpression>

#include <array>
#include <cstdint>

#include "clusterlens/errors.hpp"

namespace clusterlens::views {

namespace {

// CRC-32 of PNG chunks (ISO 3309 polynomial, as in the PNG specification's annex).
std::uint32_t crc32(const char* data, qsizetype size) {
    static const std::array<std::uint32_t, 256> table = [] {
        std::array<std::uint32_t, 256> t{};
        for (std::uint32_t n = 0; n < 256; ++n) {
            std::uint32_t c = n;
            for (int k = 0; k < 8; ++k) c = (c & 1u) ? 0xedb88320u ^ (c >> 1) : c >> 1;
            t[n] = c;
        }
        return t;
    }();
    std::uint32_t c = 0xffffffffu;
    for (qsizetype i = 0; i < size; ++i) c = table[(c ^ static_cast<std::uint8_t>(data[i])) & 0xffu] ^ (c >> 8);
    return c ^ 0xffffffffu;
}

void putBigEndian32(QByteArray& out, std::uint32_t v) {
    for (int shift = 24; shift >= 0; shift -= 8) out.append(static_cast<char>((v >> shift) & 0xffu));
}

QByteArray pngChunk(const char* type, const QByteArray& data) {
    QByteArray chunk;
    putBigEndian32(chunk, static_cast<std::uint32_t>(data.size()));
    const qsizetype typeAt = chunk.size();
    chunk.append(type, 4).append(data);
    putBigEndian32(chunk, crc32(chunk.constData() + typeAt, chunk.size() - typeAt));
    return chunk;
}

bool isLatin1(const QString& text) {
    for (QChar c : text)
        if (c.unicode() > 0xff || (c.unicode() < 0x20 && c != QLatin1Char('\n'))) return false;
    return true;
}

QString xmlEscaped(const QString& text) {
    return QString(text).toHtmlEscaped();
}

/// A PDF text string: literal for printable ASCII and line breaks, else UTF-16BE with a byte order mark.
QByteArray pdfString(const QString& text) {
    bool ascii = true;
    for (QChar c : text) ascii = ascii && ((c.unicode() >= 0x20 && c.unicode() < 0x7f) || c == QLatin1Char('\n'));
    if (ascii) {
        QByteArray out("(");
        for (char c : text.toLatin1()) {
            if (c == '\n') {
                out.append("\\n");
                continue;
            }
            if (c == '(' || c == ')' || c == '\\') out.append('\\');
            out.append(c);
        }
        return out.append(')');
    }
    QByteArray out("<FEFF");
    for (QChar c : text) out.append(QByteArray::number(c.unicode(), 16).rightJustified(4, '0').toUpper());
    return out.append('>');
}

}  // namespace

QByteArray withPngText(const QByteArray& png, const FigureProvenance& provenance) {
    constexpr qsizetype kIhdrEnd = 8 + 4 + 4 + 13 + 4;  // signature, then IHDR's length, type, data, CRC
    if (png.size() < kIhdrEnd || !png.startsWith("\x89PNG\r\n\x1a\n") || png.mid(12, 4) != "IHDR")
        throw InvalidInput("figure: the PNG encoder wrote no PNG header");
    QByteArray chunks;
    for (const auto& [key, value] : provenanceFields(provenance)) {
        if (isLatin1(value)) {
            chunks.append(pngChunk("tEXt", key.toLatin1() + '\0' + value.toLatin1()));
        } else {
            // keyword, compression flag and method, empty language tag and translated keyword, UTF-8 text
            chunks.append(pngChunk("iTXt", key.toLatin1() + QByteArray("\0\0\0\0\0", 5) + value.toUtf8()));
        }
    }
    return png.left(kIhdrEnd) + chunks + png.mid(kIhdrEnd);
}

QByteArray withSvgMetadata(const QByteArray& svg, const FigureProvenance& provenance, const QString& width,
                           const QString& height) {
    QString text = QString::fromUtf8(svg);
    const qsizetype root = text.indexOf(QStringLiteral("<svg"));
    const qsizetype rootEnd = root < 0 ? -1 : text.indexOf(QLatin1Char('>'), root);
    if (rootEnd < 0) throw InvalidInput("figure: the SVG generator wrote no <svg> element");
    QString tag = text.mid(root, rootEnd - root);
    tag.replace(QRegularExpression(QStringLiteral(" width=\"[^\"]*\"")), QStringLiteral(" width=\"%1\"").arg(width));
    tag.replace(QRegularExpression(QStringLiteral(" height=\"[^\"]*\"")), QStringLiteral(" height=\"%1\"").arg(height));
    text.replace(root, rootEnd - root, tag);

    QString meta = QStringLiteral(
        "<metadata>\n<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\" "
        "xmlns:dc=\"http://purl.org/dc/elements/1.1/\">\n<rdf:Description rdf:about=\"\">\n");
    meta += QStringLiteral("<dc:title>%1</dc:title>\n").arg(xmlEscaped(provenance.title));
    meta += QStringLiteral("<dc:creator>%1</dc:creator>\n").arg(xmlEscaped(applicationSignature()));
    if (!provenance.command.isEmpty())
        meta += QStringLiteral("<dc:description>%1</dc:description>\n").arg(xmlEscaped(provenance.command));
    for (const DataFileHash& file : provenance.data)
        meta += QStringLiteral("<dc:source>sha256:%1 %2</dc:source>\n").arg(file.sha256, xmlEscaped(file.path));
    meta += QStringLiteral("</rdf:Description>\n</rdf:RDF>\n</metadata>\n");

    // Right after the root tag: the document's title and description first, as SVG asks.
    const QString head = QStringLiteral("<title>%1</title>\n<desc>%2</desc>\n")
                             .arg(xmlEscaped(provenance.title), xmlEscaped(applicationSignature()));
    text.insert(text.indexOf(QLatin1Char('>'), root) + 1, QLatin1Char('\n') + head + meta);
    return text.toUtf8();
}

QByteArray withPdfMediaBox(const QByteArray& pdf, QSize written, QSizeF exact) {
    const auto number = [](double v) { return QByteArray::number(v, 'f', 6); };
    const QByteArray from = "[0 0 " + number(written.width()) + ' ' + number(written.height()) + ']';
    QByteArray to = "[0 0 " + number(exact.width()) + ' ' + number(exact.height()) + ']';
    if (to.size() > from.size() || !pdf.contains(from)) return pdf;  // nothing to fix, or it would move bytes
    to.insert(5, QByteArray(from.size() - to.size(), ' '));
    QByteArray out = pdf;
    return out.replace(from, to);
}

QByteArray withPdfInfo(const QByteArray& pdf, const FigureProvenance& provenance) {
    const qsizetype trailerAt = pdf.lastIndexOf("trailer");
    const qsizetype startAt = pdf.lastIndexOf("startxref");
    if (trailerAt < 0 || startAt < trailerAt) throw InvalidInput("figure: the PDF writer wrote no trailer");
    const QString trailer = QString::fromLatin1(pdf.mid(trailerAt, startAt - trailerAt));
    const auto size = QRegularExpression(QStringLiteral("/Size\\s+(\\d+)")).match(trailer);
    const auto rootRef = QRegularExpression(QStringLiteral("/Root\\s+(\\d+\\s+\\d+\\s+R)")).match(trailer);
    const auto id = QRegularExpression(QStringLiteral("/ID\\s*(\\[[^\\]]*\\])")).match(trailer);
    const auto prev =
        QRegularExpression(QStringLiteral("startxref\\s+(\\d+)")).match(QString::fromLatin1(pdf.mid(startAt)));
    if (!size.hasMatch() || !rootRef.hasMatch() || !prev.hasMatch())
        throw InvalidInput("figure: the PDF trailer has no /Size, /Root or startxref");

    const QByteArray object = size.captured(1).toLatin1();
    QStringList hashes;
    for (const DataFileHash& file : provenance.data) hashes << QStringLiteral("sha256:") + file.sha256;
    QByteArray out = pdf;
    if (!out.endsWith('\n')) out.append('\n');
    const qsizetype objectAt = out.size();
    out += object + " 0 obj\n<<\n/Title " + pdfString(provenance.title) + "\n/Subject " +
           pdfString(provenance.command) + "\n/Keywords " + pdfString(hashes.join(QLatin1Char(' '))) + "\n/Creator " +
           pdfString(applicationSignature()) + "\n/Producer " +
           pdfString(applicationSignature() + QStringLiteral(" (Qt " QT_VERSION_STR ")")) + "\n/CreationDate " +
           pdfString(QDateTime::currentDateTimeUtc().toString(QStringLiteral("'D:'yyyyMMddHHmmss'Z'"))) +
           "\n>>\nendobj\n";
    const qsizetype xrefAt = out.size();
    out += "xref\n" + object + " 1\n" + QByteArray::number(objectAt).rightJustified(10, '0') + " 00000 n \n";
    out += "trailer\n<<\n/Size " + QByteArray::number(object.toLongLong() + 1) + "\n/Root " +
           rootRef.captured(1).toLatin1() + "\n/Info " + object + " 0 R\n/Prev " + prev.captured(1).toLatin1() + "\n";
    if (id.hasMatch()) out += "/ID " + id.captured(1).toLatin1() + "\n";
    out += ">>\nstartxref\n" + QByteArray::number(xrefAt) + "\n%%EOF\n";
    return out;
}

}  // namespace clusterlens::views

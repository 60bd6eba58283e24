#include "plot/plot_options.hpp"

#include <QFileInfo>
#include <QString>
#include <QStringList>

#include <charconv>
#include <cmath>
#include <cstdio>

#include "figure/figure_provenance.hpp"

namespace clusterlens::cli {

namespace {

constexpr double kDefaultMillimetreDpi = 300.0;

/// --NAME as a positive number of at most `limit`, or 0 when absent.
double positive(const Args& args, const char* name, double limit) {
    if (!args.has(name)) return 0.0;
    const double v = args.number(name, 0.0);
    if (!(v > 0.0) || v > limit)
        throw UsageError(std::string(name) + " must lie in (0, " + std::to_string(static_cast<int>(limit)) + "]");
    return v;
}

void readSize(const Args& args, views::FigureExportOptions& options) {
    const bool pixels = args.has("--width") || args.has("--height");
    const bool mm = args.has("--width-mm") || args.has("--height-mm");
    if (pixels && mm)
        throw UsageError(
            "give the size in pixels (--width/--height) or in millimetres (--width-mm/--height-mm), not both");
    if (args.has("--dpi")) {
        const auto dpi = args.count("--dpi", 96);
        if (dpi < 10 || dpi > 2400) throw UsageError("--dpi must lie in 10..2400");
        options.dpi = static_cast<int>(dpi);
    } else {
        options.dpi = mm ? static_cast<int>(kDefaultMillimetreDpi) : 96;
    }
    if (mm) {
        options.unit = views::FigureUnit::Millimetres;
        options.size = QSizeF(positive(args, "--width-mm", 2000), positive(args, "--height-mm", 2000));
    } else if (pixels) {
        options.size = QSizeF(positive(args, "--width", 20000), positive(args, "--height", 20000));
    }
}

views::FigureStyle readStyle(const Args& args) {
    views::FigureStyle style;
    style.title = QString::fromStdString(args.value("--title"));
    style.xLabel = QString::fromStdString(args.value("--x-label"));
    style.yLabel = QString::fromStdString(args.value("--y-label"));
    style.palette = *views::Palette::paletteFromName(
        QString::fromStdString(args.choice("--palette", {"tableau", "okabe-ito", "viridis"}, "tableau")));
    std::vector<std::string> positions;
    for (const QString& name : views::legendPositionNames()) positions.push_back(name.toStdString());
    style.legend = *views::legendPositionFromName(QString::fromStdString(args.choice("--legend", positions, "auto")));
    style.transparent = args.choice("--background", {"white", "transparent"}, "white") == "transparent";
    style.fontScale = args.number("--font-scale", 1.0);
    if (!(style.fontScale >= 0.25 && style.fontScale <= 4.0)) throw UsageError("--font-scale must lie in 0.25..4");
    return style;
}

}  // namespace

PlotOutput plotOutput(const Args& args, const char* kind, const std::vector<std::string>& argv,
                      const std::vector<std::string>& dataFiles) {
    PlotOutput out;
    out.path = args.required("--out");
    if (!views::isFigureFormat(QFileInfo(QString::fromStdString(out.path)).suffix()))
        throw UsageError("--out must end in .png, .tif, .tiff, .svg or .pdf (got '" + out.path + "')");
    readSize(args, out.options);
    out.style = readStyle(args);
    QStringList words = {QStringLiteral("clusterlens-cli"), QStringLiteral("plot"), QString::fromLatin1(kind)};
    for (const std::string& word : argv) words << QString::fromStdString(word);
    out.options.provenance.command = views::shellCommand(words);
    for (const std::string& file : dataFiles)
        out.options.provenance.data.push_back(views::hashDataFile(QString::fromStdString(file)));
    return out;
}

std::optional<std::pair<double, double>> rangeOption(const Args& args, const char* option, const char* units) {
    if (!args.has(option)) return std::nullopt;
    const std::string text = args.value(option);
    const auto number = [&](std::size_t from, std::size_t to, double& v) {
        const auto [end, error] = std::from_chars(text.data() + from, text.data() + to, v);
        return error == std::errc() && end == text.data() + to && std::isfinite(v);
    };
    const std::size_t colon = text.find(':', 1);  // LOW may start with a minus sign
    std::pair<double, double> ends;
    if (colon == std::string::npos || !number(0, colon, ends.first) || !number(colon + 1, text.size(), ends.second) ||
        !(ends.first < ends.second))
        throw UsageError(std::string(option) + ": expected LOW:HIGH in " + units + " with LOW < HIGH, got '" + text +
                         "'");
    return ends;
}

void writePlot(views::Figure& figure, const PlotOutput& output, const std::string& summary) {
    figure.setStyle(output.style);
    views::exportFigure(figure, QString::fromStdString(output.path), output.options);
    std::printf("%s: %s\n", output.path.c_str(), summary.c_str());
}

}  // namespace clusterlens::cli

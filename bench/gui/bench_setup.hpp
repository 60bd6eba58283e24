#pragma once
// Command-line options and window setup shared by the GUI benchmark programs.

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QEventLoop>
#include <QWidget>
#include <QWindow>

#include <algorithm>
#include <cstdint>

namespace clusterlens::bench {

/// A "--NAME VALUE_NAME" option with a default value.
inline QCommandLineOption valueOption(const char* name, const char* description, const char* valueName,
                                      const char* defaultValue) {
    return {QString::fromLatin1(name), QString::fromLatin1(description), QString::fromLatin1(valueName),
            QString::fromLatin1(defaultValue)};
}

/// Shows `widget` and runs the event loop until its window is exposed (drawing can start).
inline void showExposed(QWidget& widget) {
    widget.show();
    while (!widget.windowHandle() || !widget.windowHandle()->isExposed())
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
}

/// The options of a benchmark that pans a window: --frames F (frames measured), --width W and
/// --height H (the window), --seed S (random data).
struct PanOptions {
    QCommandLineOption frames = valueOption("frames", "Frames measured.", "F", "300");
    QCommandLineOption width;
    QCommandLineOption height;
    QCommandLineOption seed;

    explicit PanOptions(const char* defaultWidth = "1280", const char* defaultHeight = "800",
                        const char* defaultSeed = "20261121")
        : width(valueOption("width", "Window width.", "W", defaultWidth)),
          height(valueOption("height", "Window height.", "H", defaultHeight)),
          seed(valueOption("seed", "Random seed.", "S", defaultSeed)) {}

    int frameCount(const QCommandLineParser& parser) const { return std::max(1, parser.value(frames).toInt()); }
    std::uint64_t seedValue(const QCommandLineParser& parser) const { return parser.value(seed).toULongLong(); }
    /// Sizes `widget` to --width x --height and shows it (showExposed).
    void show(QWidget& widget, const QCommandLineParser& parser) const {
        widget.resize(parser.value(width).toInt(), parser.value(height).toInt());
        showExposed(widget);
    }
};

}  // namespace clusterlens::bench

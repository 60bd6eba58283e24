// clusterlens [FILE] [--demo]: the desktop application.

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QPainter>
#include <QPixmap>
#include <QTimer>

#include <cstdio>

#include "dataset_session.hpp"
#include "main_window.hpp"
#include "opengl_setup.hpp"
#include "scatter/scatter_widget.hpp"

namespace {

/// --screenshot FILE (for documentation and CI): saves the window once the data is on screen,
/// then quits; exit code 1 when the dataset cannot be read, 2 on timeout.
void scheduleScreenshot(clusterlens::gui::MainWindow& window, const QString& file) {
    using clusterlens::views::DatasetSession;
    using clusterlens::views::ScatterWidget;
    QObject::connect(window.scatter(), &ScatterWidget::dataDrawn, &window, [&window, file] {
        // One more event-loop turn lets docks and status bar settle before the grab.
        QTimer::singleShot(500, &window, [&window, file] {
            // QWidget::grab() renders a QOpenGLWidget without what paintGL() paints with QPainter
            // (the painter is redirected while grabbing), so the scatter's own framebuffer,
            // axes included, is drawn over its place.
            QPixmap shot = window.grab();
            {
                QPainter painter(&shot);
                painter.drawImage(window.scatter()->mapTo(&window, QPoint(0, 0)), window.scatter()->grabFramebuffer());
            }
            const bool saved = shot.save(file);
            std::fprintf(stderr, "%s %s\n", saved ? "saved" : "could not save", qPrintable(file));
            QApplication::exit(saved ? 0 : 1);
        });
    });
    QObject::connect(window.session(), &DatasetSession::loadFailed, &window,
                     [](const QString&, const QString& message) {
                         std::fprintf(stderr, "%s\n", qPrintable(message));
                         QApplication::exit(1);
                     });
    QTimer::singleShot(120'000, &window, [] {
        std::fprintf(stderr, "no data drawn within 120 s\n");
        QApplication::exit(2);
    });
}

}  // namespace

int main(int argc, char* argv[]) {
    clusterlens::views::setUpOpenGl();
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("ClusterLens"));
    QApplication::setApplicationName(QStringLiteral("clusterlens"));
    QApplication::setApplicationDisplayName(QStringLiteral("ClusterLens"));
    QApplication::setApplicationVersion(QStringLiteral(CLUSTERLENS_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Visual analytics of cluster structure in cytometry and single-cell data."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(
        QStringLiteral("FILE"), QStringLiteral("Dataset to open (.csv .tsv .txt .data .gz .fcs .h5 .hdf5 .h5ad .bin)."),
        QStringLiteral("[FILE]"));
    const QCommandLineOption demo(QStringLiteral("demo"), QStringLiteral("Open the bundled demo dataset."));
    QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                  QStringLiteral("Save the window to FILE once the data is drawn, then quit."),
                                  QStringLiteral("FILE"));
    screenshot.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOption(demo);
    parser.addOption(screenshot);
    parser.process(app);

    clusterlens::gui::MainWindow window;
    if (parser.isSet(screenshot)) {
        window.resize(1440, 900);
        scheduleScreenshot(window, QFileInfo(parser.value(screenshot)).absoluteFilePath());
    }
    window.show();
    const QStringList files = parser.positionalArguments();
    if (!files.isEmpty())
        window.openFile(files.first());
    else if (parser.isSet(demo))
        window.openDemo();
    return QApplication::exec();
}

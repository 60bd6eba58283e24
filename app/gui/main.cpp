// clusterlens [FILE] [--demo]: the desktop application.

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QTimer>

#include <cstdio>

#include "dataset_session.hpp"
#include "dendrogram/clustering_panel.hpp"
#include "dendrogram/dendrogram_panel.hpp"
#include "jobs/job_runner.hpp"
#include "main_window.hpp"
#include "opengl_setup.hpp"
#include "scatter/scatter_widget.hpp"
#include "wheel_guard.hpp"
#include "window_grab.hpp"

namespace {

/// Saves the window to `file` and quits (exit code 1 when it cannot be written).
void saveScreenshot(clusterlens::gui::MainWindow& window, const QString& file) {
    const QImage shot = clusterlens::views::grabWindowWithViews(window);
    const bool saved = shot.save(file);
    std::fprintf(stderr, "%s %s\n", saved ? "saved" : "could not save", qPrintable(file));
    QApplication::exit(saved ? 0 : 1);
}

/// --cluster METHOD: once the data is drawn, clusters it with METHOD (mahalanobis or a classic linkage)
/// as the clustering panel's own job, as its Run button does.
void clusterOnceDrawn(clusterlens::gui::MainWindow& window, const QString& cluster) {
    QObject::connect(
        window.scatter(), &clusterlens::views::ScatterWidget::dataDrawn, &window,
        [&window, cluster] {
            window.clusteringPanel()->setLinkage(cluster);
            window.clusteringPanel()->run();
        },
        Qt::SingleShotConnection);
}

/// One stderr line when a job starts and one when it ends, for a user (or a test) watching the terminal.
void logJobsToStderr(clusterlens::gui::MainWindow& window) {
    using clusterlens::views::JobId;
    using clusterlens::views::JobRunner;
    using clusterlens::views::JobState;
    QObject::connect(window.jobRunner(), &JobRunner::jobStarted, &window,
                     [](JobId, const QString& name) { std::fprintf(stderr, "job started: %s\n", qPrintable(name)); });
    QObject::connect(window.jobRunner(), &JobRunner::jobFinished, &window,
                     [](JobId, const QString& name, JobState state, const QString&, qint64 ms) {
                         std::fprintf(stderr, "job ended: %s (%s after %.2f s)\n", qPrintable(name),
                                      qPrintable(clusterlens::views::jobStateName(state)),
                                      static_cast<double>(ms) / 1000.0);
                     });
}

/// --screenshot FILE (for documentation and CI): saves the window once the data is on screen,
/// then quits; exit code 1 when the dataset cannot be read or clustering fails, 2 on timeout.
/// With --cluster METHOD the data is first clustered (mahalanobis or a classic linkage), the tree
/// cut into --cut-k clusters, and the window saved once the cut colours the views.
void scheduleScreenshot(clusterlens::gui::MainWindow& window, const QString& file, const QString& cluster, int cutK) {
    using clusterlens::views::ClusteringPanel;
    using clusterlens::views::DatasetSession;
    using clusterlens::views::DendrogramPanel;
    using clusterlens::views::ScatterWidget;
    // A few event-loop turns let docks, status bar and recoloured views settle before the grab.
    const auto shootSoon = [&window, file](int delayMs) {
        QTimer::singleShot(delayMs, &window, [&window, file] { saveScreenshot(window, file); });
    };
    if (cluster.isEmpty()) {
        QObject::connect(window.scatter(), &ScatterWidget::dataDrawn, &window, [shootSoon] { shootSoon(500); });
    } else {
        QObject::connect(window.dendrogramPanel(), &DendrogramPanel::treeShown, &window,
                         [&window, cutK] { window.dendrogramPanel()->setClusterCount(cutK); });
        QObject::connect(
            window.dendrogramPanel(), &DendrogramPanel::cutApplied, &window, [shootSoon] { shootSoon(1500); },
            Qt::SingleShotConnection);
        QObject::connect(window.clusteringPanel(), &ClusteringPanel::failed, &window, [](const QString& message) {
            std::fprintf(stderr, "%s\n", qPrintable(message));
            QApplication::exit(1);
        });
    }
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

/// The application's options; built before any application object so that --help and --version work
/// without a display.
struct Options {
    QCommandLineOption demo{QStringLiteral("demo"), QStringLiteral("Open the bundled demo dataset.")};
    QCommandLineOption screenshot{QStringLiteral("screenshot"),
                                  QStringLiteral("Save the window to FILE once the data is drawn, then quit."),
                                  QStringLiteral("FILE")};
    QCommandLineOption cluster{QStringLiteral("cluster"),
                               QStringLiteral("Cluster the data with METHOD once it is loaded (mahalanobis, "
                                              "average, ward, ...)."),
                               QStringLiteral("METHOD")};
    QCommandLineOption cutK{QStringLiteral("cut-k"), QStringLiteral("With --cluster: clusters of the cut shown."),
                            QStringLiteral("K"), QStringLiteral("5")};
    QCommandLineOption recoveryDir{QStringLiteral("recovery-dir"),
                                   QStringLiteral("Autosave into DIR instead of the user's data folder (tests)."),
                                   QStringLiteral("DIR")};
    QCommandLineOption autosaveSeconds{QStringLiteral("autosave-seconds"),
                                       QStringLiteral("Seconds between autosaves (tests)."), QStringLiteral("S"),
                                       QStringLiteral("120")};

    void addTo(QCommandLineParser& parser) {
        parser.setApplicationDescription(
            QStringLiteral("Visual analytics of cluster structure in cytometry and single-cell data."));
        parser.addHelpOption();
        parser.addVersionOption();
        parser.addPositionalArgument(
            QStringLiteral("FILE"),
            QStringLiteral("Dataset to open (.csv .tsv .txt .data .gz .fcs .h5 .hdf5 .h5ad .bin)."),
            QStringLiteral("[FILE]"));
        for (QCommandLineOption* hidden : {&screenshot, &cluster, &cutK, &recoveryDir, &autosaveSeconds})
            hidden->setFlags(QCommandLineOption::HiddenFromHelp);
        for (const QCommandLineOption* option : {&demo, &screenshot, &cluster, &cutK, &recoveryDir, &autosaveSeconds})
            parser.addOption(*option);
    }
};

void setApplicationNames() {
    QCoreApplication::setOrganizationName(QStringLiteral("ClusterLens"));
    QCoreApplication::setApplicationName(QStringLiteral("clusterlens"));
    QCoreApplication::setApplicationVersion(QStringLiteral(CLUSTERLENS_VERSION));
}

/// True when the command line only asks for help or the version (answered without a display).
bool asksOnlyForText(int argc, char* argv[]) {
    for (int i = 1; i < argc; ++i) {
        const QByteArray arg(argv[i]);
        if (arg == "-h" || arg == "--help" || arg == "--help-all" || arg == "-v" || arg == "--version") return true;
    }
    return false;
}

}  // namespace

int main(int argc, char* argv[]) {
    Options options;
    QCommandLineParser parser;
    options.addTo(parser);
    if (asksOnlyForText(argc, argv)) {
        QCoreApplication text(argc, argv);
        setApplicationNames();
        parser.process(text);  // prints the help or the version and exits
        return 0;
    }
    clusterlens::views::setUpOpenGl();
    QApplication app(argc, argv);
    setApplicationNames();
    QApplication::setApplicationDisplayName(QStringLiteral("ClusterLens"));
    parser.process(app);
    clusterlens::views::WheelGuard wheelGuard;
    app.installEventFilter(&wheelGuard);

    clusterlens::gui::MainWindow window;
    logJobsToStderr(window);
    if (parser.isSet(options.cluster)) clusterOnceDrawn(window, parser.value(options.cluster));
    if (parser.isSet(options.screenshot)) {
        // A clustered screenshot shows the tree and the views it colours: the whole screen of Xvfb.
        if (parser.isSet(options.cluster))
            window.resize(1600, 1000);
        else
            window.resize(1440, 900);
        scheduleScreenshot(window, QFileInfo(parser.value(options.screenshot)).absoluteFilePath(),
                           parser.value(options.cluster), parser.value(options.cutK).toInt());
    }
    window.show();
    // Documentation screenshots neither autosave nor offer to recover.
    if (!parser.isSet(options.screenshot))
        window.startRecovery(parser.value(options.recoveryDir), parser.value(options.autosaveSeconds).toInt() * 1000);
    const QStringList files = parser.positionalArguments();
    if (!files.isEmpty())
        window.openFile(files.first());
    else if (parser.isSet(options.demo))
        window.openDemo();
    return QApplication::exec();
}

// Opening another data file starts clean: nothing of the previous file's analyses stays in the
// forms (a density-peaks cutoff value, VAT cuts, a clustering's "Done" line, colouring by its
// labels), the decision graph says how to fill it, and a 10x count matrix starts on its most
// variable genes rather than on its first two (mostly zero) ones.

#include <QLabel>
#include <QSignalSpy>

#include "analysis_session.hpp"
#include "clusterlens/io/default_read_spec.hpp"
#include "dataset_panel.hpp"
#include "dataset_session.hpp"
#include "dendrogram/clustering_panel.hpp"
#include "dpc/decision_graph.hpp"
#include "dpc/dpc_panel.hpp"
#include "gui_test_main.hpp"
#include "main_window.hpp"
#include "scatter/scatter_widget.hpp"
#include "vat/vat_panel.hpp"

using namespace clusterlens;
using namespace clusterlens::views;
using clusterlens::gui::MainWindow;

namespace {

constexpr int kTimeoutMs = 120'000;

bool anyLabelStartsWith(const QWidget* panel, const QString& prefix) {
    for (const QLabel* label : panel->findChildren<QLabel*>())
        if (label->text().startsWith(prefix)) return true;
    return false;
}

}  // namespace

class NewFileStateTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void anotherFileStartsWithCleanFormsAndUsefulAxes();
};

void NewFileStateTest::anotherFileStartsWithCleanFormsAndUsefulAxes() {
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QSignalSpy drawn(window.scatter(), &ScatterWidget::dataDrawn);
    window.openDemo();
    QTRY_VERIFY_WITH_TIMEOUT(drawn.count() > 0, kTimeoutMs);

    // State of the first file: a clustering done, a cutoff value, VAT cuts, peaks colouring the views.
    ClusteringPanel* clustering = window.clusteringPanel();
    QSignalSpy added(clustering, &ClusteringPanel::linkageAdded);
    clustering->setLinkage(QStringLiteral("average"));
    clustering->run();
    QTRY_VERIFY_WITH_TIMEOUT(added.count() > 0, kTimeoutMs);
    QVERIFY(anyLabelStartsWith(clustering, QStringLiteral("Done")));
    DpcPanel* dpc = window.dpcPanel();
    DensityPeaksOptions options;
    options.dc = 0.5;
    dpc->setOptions(options, Backend::Cpu);
    QSignalSpy dpcShown(dpc, &DpcPanel::resultShown);
    dpc->run();
    QTRY_VERIFY_WITH_TIMEOUT(dpcShown.count() > 0, kTimeoutMs);
    dpc->applyTopK(3);
    VatPanel* vat = window.vatPanel();
    QSignalSpy vatShown(vat, &VatPanel::resultShown);
    vat->run();
    QTRY_VERIFY_WITH_TIMEOUT(vatShown.count() > 0, kTimeoutMs);
    vat->setClusterCount(3);
    QCOMPARE(vat->clusterCount(), 3);
    QCOMPARE(window.datasetPanel()->colourMode(), ColourMode::Labels);

    const QString visium = QStringLiteral(CLUSTERLENS_DATA_DIR "/h5/visium_filtered_feature_bc_matrix.h5");
    const auto before = window.session()->current();
    // As File > Open does once the unsaved-work question is answered.
    window.session()->openWithDefaults(visium);
    QTRY_VERIFY_WITH_TIMEOUT(window.session()->current() != before && window.session()->current(), kTimeoutMs);

    QVERIFY(!anyLabelStartsWith(clustering, QStringLiteral("Done")));
    QVERIFY(!dpc->options().dc);
    QVERIFY(!dpc->lastRun());
    QVERIFY(!dpc->graph()->data());  // the graph shows its hint, not the demo's peaks
    QCOMPARE(vat->clusterCount(), 1);
    QCOMPARE(window.datasetPanel()->colourMode(), ColourMode::Density);

    // The scatter starts on the two most variable genes, as the engine proposes.
    const auto raw = window.session()->raw();
    const DefaultScatter proposal = proposeReadSpec(*raw).scatter;
    QVERIFY(proposal.embedding.empty());
    QVERIFY(proposal.x != 0 || proposal.y != 1);
    QCOMPARE(window.datasetPanel()->xName(), QString::fromStdString(proposal.xName));
    QCOMPARE(window.datasetPanel()->yName(), QString::fromStdString(proposal.yName));
}

CLUSTERLENS_GUI_TEST_MAIN(NewFileStateTest)
#include "new_file_state_test.moc"

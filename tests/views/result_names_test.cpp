// Stored result names are the CLI's stable spelling, never translated, and the display names of
// the MHCA variants are separate texts derived from the engine's ids.

#include <QTest>

#include "compare/compared_pair.hpp"
#include "gui_test_main.hpp"
#include "result_names.hpp"

using namespace clusterlens;
using namespace clusterlens::views;

class ResultNamesTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void hcaResultsAreStoredUnderTheCliNames();
    void derivedLabelingsKeepTheirOriginBeforeK();
    void groundTruthIsRecognisedByItsStoredName();
    void variantDisplayNamesAreNotTheIds();
};

void ResultNamesTest::hcaResultsAreStoredUnderTheCliNames() {
    // cmd_hca.cpp's defaultName: "MHCA " + --variant + " t=" + %g of --threshold, or "METHOD linkage".
    HcaRequest request;
    QCOMPARE(hcaResultName(request), QStringLiteral("MHCA full t=0.5"));
    request.mhca.variant = MhcaVariant::Centroid;
    request.mhca.threshold = 0.125;
    QCOMPARE(hcaResultName(request), QStringLiteral("MHCA centroid t=0.125"));
    request.mhca.threshold = 1e-5;
    QCOMPARE(hcaResultName(request), QStringLiteral("MHCA centroid t=1e-05"));
    request.mahalanobis = false;
    request.method = LinkageMethod::Ward;
    QCOMPARE(hcaResultName(request), QStringLiteral("ward linkage"));
    QCOMPARE(aprioriGroupsName(QStringLiteral("MHCA full t=0.5")),
             QStringLiteral("a-priori groups of MHCA full t=0.5"));
}

void ResultNamesTest::derivedLabelingsKeepTheirOriginBeforeK() {
    const QString linkage = QStringLiteral("MHCA full t=0.5");
    QCOMPARE(dendrogramCutName(linkage, 5), QStringLiteral("cut of MHCA full t=0.5 (k=5)"));
    QCOMPARE(dendrogramCutName(linkage, 4, std::size_t{20}), QStringLiteral("cut of MHCA full t=0.5 (k=4, min 20)"));
    QCOMPARE(resultOrigin(dendrogramCutName(linkage, 5)), resultOrigin(dendrogramCutName(linkage, 6)));
    QCOMPARE(resultOrigin(dpcLabelingName(3, false)), resultOrigin(dpcLabelingName(4, true)));
    QCOMPARE(vatCutsName(2), QStringLiteral("VAT cuts (k=2)"));
    QCOMPARE(dpcLabelingName(3, true), QStringLiteral("DPC (k=3, halo)"));
}

void ResultNamesTest::groundTruthIsRecognisedByItsStoredName() {
    QVERIFY(isGroundTruthName(groundTruthName(QStringLiteral("class"))));
    QVERIFY(!isGroundTruthName(QStringLiteral("ground truthiness")));
    QVERIFY(!isGroundTruthName(dpcLabelingName(3, false)));
}

void ResultNamesTest::variantDisplayNamesAreNotTheIds() {
    for (MhcaVariant variant : {MhcaVariant::Full, MhcaVariant::Centroid}) {
        const QString id = QLatin1String(mhcaVariantName(variant));
        QCOMPARE(parseMhcaVariant(id.toStdString()), variant);
        QVERIFY(mhcaVariantDisplayName(variant) != id);
        QVERIFY(mhcaVariantDisplayName(variant).startsWith(id));
    }
    QVERIFY(mhcaVariantDisplayName(MhcaVariant::Full).contains(QStringLiteral("FMD")));
    QVERIFY(mhcaVariantDisplayName(MhcaVariant::Centroid).contains(QStringLiteral("CMD")));
}

CLUSTERLENS_GUI_TEST_MAIN(ResultNamesTest)
#include "result_names_test.moc"

// The Open dialog proposes each file's own defaults — an FCS file with a spillover matrix: compensation,
// arcsinh 150, Time left out; an h5ad count matrix: normalise-total, log1p (and PCA), no arcsinh; a CSV
// table: no transform — and a new file never inherits the transform of the file before. The transform
// table's per-channel cofactor changes that channel's values and no other.

#include <QCheckBox>
#include <QComboBox>
#include <QListWidget>
#include <QSignalSpy>
#include <QTableWidget>

#include <cmath>

#include "dataset_session.hpp"
#include "gui_test_main.hpp"
#include "jobs/job_runner.hpp"
#include "open/open_dialog.hpp"
#include "open/read_options_form.hpp"
#include "open/transform_table.hpp"

using namespace clusterlens;
using namespace clusterlens::views;

namespace {

constexpr int kJobTimeoutMs = 60'000;

QString dataFile(const char* relative) {
    return QStringLiteral(CLUSTERLENS_DATA_DIR "/") + QString::fromLatin1(relative);
}

QStringList checkedChannels(const OpenDialog& dialog) {
    QStringList names;
    for (int i = 0; i < dialog.channels()->count(); ++i)
        if (dialog.channels()->item(i)->checkState() == Qt::Checked) names << dialog.channels()->item(i)->text();
    return names;
}

}  // namespace

class OpenDialogTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void fcsWithSpilloverProposesCompensationArcsinh150AndLeavesTimeOut();
    void h5adCountMatrixProposesNormaliseTotalAndLog1pWithoutArcsinh();
    void csvTableProposesNoTransformAndEveryColumn();
    void aNewFileDoesNotInheritTheTransformOfTheFileBefore();
    void perChannelCofactorChangesExactlyThatChannel();

private:
    void waitInspected(OpenDialog& dialog);
    JobRunner m_runner;
};

void OpenDialogTest::waitInspected(OpenDialog& dialog) {
    QSignalSpy inspected(&dialog, &OpenDialog::inspected);
    QSignalSpy failed(&dialog, &OpenDialog::inspectionFailed);
    QTRY_VERIFY_WITH_TIMEOUT(inspected.count() + failed.count() > 0, kJobTimeoutMs);
    QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.at(0).at(0).toString()));
    QVERIFY(dialog.isReady());
}

void OpenDialogTest::fcsWithSpilloverProposesCompensationArcsinh150AndLeavesTimeOut() {
    OpenDialog dialog(&m_runner, dataFile("fcs/AriaFile1.fcs"));
    waitInspected(dialog);
    QVERIFY(dialog.readOptions()->compensation()->isEnabled());
    QVERIFY(dialog.readOptions()->compensation()->isChecked());
    QCOMPARE(dialog.transformTable()->method(), TransformTable::Asinh);
    QCOMPARE(dialog.transformTable()->table()->rowCount(), 12);
    const QStringList used = checkedChannels(dialog);
    QCOMPARE(used.size(), 11);
    QVERIFY(!used.contains(QStringLiteral("Time")));

    const OpenChoice choice = dialog.choice();
    QVERIFY(choice.spec.compensate);
    QCOMPARE(QString::fromStdString(choice.spec.transform), QStringLiteral("asinh:150"));
    QVERIFY(choice.spec.cofactors.empty());
    QCOMPARE(choice.spec.columns.size(), std::size_t{11});
    // Compensation reads the file again: the uncompensated reading is not reused.
    QVERIFY(!dialog.reusableData());
}

void OpenDialogTest::h5adCountMatrixProposesNormaliseTotalAndLog1pWithoutArcsinh() {
    OpenDialog dialog(&m_runner, dataFile("h5ad/pbmc_small_csr.h5ad"));
    waitInspected(dialog);
    QCOMPARE(dialog.transformTable()->method(), TransformTable::Counts);
    const QString transform = QString::fromStdString(dialog.choice().spec.transform);
    // 230 genes: PCA to 50 components after the count steps.
    QCOMPARE(transform, QStringLiteral("normalize-total,log1p,pca:50"));
    QVERIFY(!transform.contains(QStringLiteral("asinh")));
    QVERIFY(!dialog.readOptions()->compensation()->isEnabled());
    QVERIFY(dialog.readOptions()->embedding()->isEnabled());
    QVERIFY(dialog.readOptions()->embedding()->findData(QStringLiteral("X_umap")) > 0);
    QCOMPARE(checkedChannels(dialog).size(), 230);
    QVERIFY(dialog.reusableData());
}

void OpenDialogTest::csvTableProposesNoTransformAndEveryColumn() {
    OpenDialog dialog(&m_runner, dataFile("tables/wine.csv"));
    waitInspected(dialog);
    QCOMPARE(dialog.transformTable()->method(), TransformTable::None);
    const OpenChoice choice = dialog.choice();
    QVERIFY(choice.spec.transform.empty());
    QVERIFY(choice.spec.columns.empty());
    QVERIFY(!choice.spec.compensate);
    QVERIFY(!dialog.readOptions()->compensation()->isEnabled());
    QVERIFY(dialog.readOptions()->labelColumn()->isEnabled());
    QVERIFY(dialog.reusableData());
}

void OpenDialogTest::aNewFileDoesNotInheritTheTransformOfTheFileBefore() {
    DatasetSession session(&m_runner);
    QSignalSpy changed(&session, &DatasetSession::currentChanged);
    session.openWithDefaults(dataFile("fcs/AriaFile1.fcs"));
    QTRY_VERIFY_WITH_TIMEOUT(changed.count() == 1, kJobTimeoutMs);
    QCOMPARE(session.transform().spec(), QStringLiteral("asinh:150"));
    QVERIFY(session.choice().spec.compensate);

    session.openWithDefaults(dataFile("tables/wine.csv"));
    QTRY_VERIFY_WITH_TIMEOUT(changed.count() == 2, kJobTimeoutMs);
    QVERIFY(session.transform().isNone());
    QVERIFY(!session.choice().spec.compensate);
    // Untransformed: the values shown are the values read.
    QCOMPARE(session.current(), session.raw());
}

void OpenDialogTest::perChannelCofactorChangesExactlyThatChannel() {
    DatasetSession session(&m_runner);
    QSignalSpy changed(&session, &DatasetSession::currentChanged);
    session.openWithDefaults(dataFile("tables/wine.csv"));
    QTRY_VERIFY_WITH_TIMEOUT(changed.count() == 1, kJobTimeoutMs);
    const auto raw = session.raw();
    QStringList channels;
    for (const std::string& f : raw->features) channels << QString::fromStdString(f);

    TransformTable table;
    table.setChannels(channels);
    table.setMethod(TransformTable::Asinh);
    table.applyToAll(5.0);
    session.setTransform(table.choice());
    QTRY_VERIFY_WITH_TIMEOUT(changed.count() == 2, kJobTimeoutMs);
    const auto uniform = session.current();

    const std::size_t own = 3;
    table.setChannelCofactor(channels[static_cast<int>(own)], 0.5);
    const TransformChoice choice = table.choice();
    QCOMPARE(choice.cofactors.size(), std::size_t{1});
    QCOMPARE(QString::fromStdString(choice.cofactors[0].channel), channels[static_cast<int>(own)]);
    session.setTransform(choice);
    QTRY_VERIFY_WITH_TIMEOUT(changed.count() == 3, kJobTimeoutMs);
    const auto perChannel = session.current();
    QVERIFY(perChannel != uniform);

    for (std::size_t i = 0; i < raw->n; ++i)
        for (std::size_t j = 0; j < raw->d; ++j) {
            const double x = raw->at(i, j);
            if (j == own) {
                QVERIFY(std::abs(perChannel->at(i, j) - std::asinh(x / 0.5)) < 1e-5);
                QVERIFY(x == 0.0 || perChannel->at(i, j) != uniform->at(i, j));
            } else {
                QCOMPARE(perChannel->at(i, j), uniform->at(i, j));
                QVERIFY(std::abs(uniform->at(i, j) - std::asinh(x / 5.0)) < 1e-5);
            }
        }
}

CLUSTERLENS_GUI_TEST_MAIN(OpenDialogTest)
#include "open_dialog_test.moc"

#include "result_names.hpp"

#include <QCoreApplication>

#include "clusterlens/hca/hca_result_name.hpp"

namespace clusterlens::views {

QString hcaResultName(const HcaRequest& request) {
    return QString::fromStdString(clusterlens::hcaResultName(request));
}

QString aprioriGroupsName(const QString& linkageName) {
    return QStringLiteral("a-priori groups of %1").arg(linkageName);
}

QString dpcLabelingName(std::size_t k, bool halo) {
    return (halo ? QStringLiteral("DPC (k=%1, halo)") : QStringLiteral("DPC (k=%1)")).arg(k);
}

QString vatCutsName(int k) {
    return QStringLiteral("VAT cuts (k=%1)").arg(k);
}

QString dendrogramCutName(const QString& linkageName, int k) {
    return QStringLiteral("cut of %1 (k=%2)").arg(linkageName).arg(k);
}

QString dendrogramCutName(const QString& linkageName, int populations, std::size_t minSize) {
    return QStringLiteral("cut of %1 (k=%2, min %3)").arg(linkageName).arg(populations).arg(minSize);
}

QString groundTruthName(const QString& source) {
    return QStringLiteral("ground truth (%1)").arg(source);
}

bool isGroundTruthName(const QString& name) {
    return name.startsWith(QLatin1String("ground truth ("));
}

QString mhcaVariantDisplayName(MhcaVariant variant) {
    switch (variant) {
        case MhcaVariant::Centroid:
            return QCoreApplication::translate("ResultNames", "centroid (CMD)");
        case MhcaVariant::Full:
            break;
    }
    return QCoreApplication::translate("ResultNames", "full (FMD)");
}

}  // namespace clusterlens::views

#include "figure/methods_text.hpp"

#include <QLocale>

#include "figure/figure_provenance.hpp"

namespace clusterlens::views {

namespace {

QString countWords(std::size_t n) {
    return QLocale(QLocale::English).toString(static_cast<qulonglong>(n));
}

}  // namespace

QString referenceText(Reference reference) {
    switch (reference) {
        case Reference::DensityPeaks:
            return QStringLiteral(
                "Rodriguez A, Laio A. Clustering by fast search and find of density peaks. Science "
                "344(6191):1492\u20131496 (2014).");
        case Reference::Mhca:
            return QStringLiteral(
                "Fi\u0161er K, Sieger T, Schumich A, Wood B, Irving J, Mejst\u0159\u00edkov\u00e1 E, "
                "Dworzak MN. Detection and monitoring of normal and leukemic cell populations with "
                "hierarchical clustering of flow cytometry data. Cytometry A 81(1):25\u201334 (2012).");
        case Reference::MhcaGpu:
            return QStringLiteral(
                "\u0160melko A. Mahalanobis based hierarchical clustering accelerated on GPU. Master "
                "thesis, Charles University, Prague (2020).");
        case Reference::Fastcluster:
            return QStringLiteral(
                "M\u00fcllner D. fastcluster: Fast hierarchical, agglomerative clustering routines for R "
                "and Python. J Stat Softw 53(9):1\u201318 (2013).");
        case Reference::Vat:
            return QStringLiteral(
                "Bezdek JC, Hathaway RJ. VAT: a tool for visual assessment of (cluster) tendency. Proc. "
                "IJCNN 3:2225\u20132230 (2002).");
        case Reference::IvatOriginal:
            return QStringLiteral(
                "Wang L, Nguyen UTV, Bezdek JC, Leckie CA, Ramamohanarao K. iVAT and aVAT: enhanced visual "
                "analysis for cluster tendency assessment. Proc. PAKDD, LNCS 6118:16\u201327 (2010).");
        case Reference::Ivat:
            return QStringLiteral(
                "Havens TC, Bezdek JC. An efficient formulation of the improved visual assessment of "
                "cluster tendency (iVAT) algorithm. IEEE Trans Knowl Data Eng 24(5):813\u2013822 (2012).");
        case Reference::Ari:
            return QStringLiteral("Hubert L, Arabie P. Comparing partitions. J Classif 2:193\u2013218 (1985).");
        case Reference::Nmi:
            return QStringLiteral(
                "Vinh NX, Epps J, Bailey J. Information theoretic measures for clusterings comparison. "
                "J Mach Learn Res 11:2837\u20132854 (2010).");
        case Reference::Hungarian:
            return QStringLiteral(
                "Kuhn HW. The Hungarian method for the assignment problem. Nav Res Logist Q "
                "2:83\u201397 (1955).");
    }
    return {};
}

QString methodsText(const QString& paragraph, std::initializer_list<Reference> references) {
    QStringList lines = {paragraph + QStringLiteral(" Figures were drawn with %1.").arg(applicationSignature())};
    if (references.size() > 0) lines << QString() << QStringLiteral("References");
    int number = 1;
    for (Reference r : references) lines << QStringLiteral("%1. %2").arg(number++).arg(referenceText(r));
    return lines.join(QLatin1Char('\n'));
}

QString densityPeaksMethods(std::size_t n, const QString& dcDescription, const QString& kernel, std::size_t peaks) {
    const bool gaussian = kernel.compare(QLatin1String("Gaussian"), Qt::CaseInsensitive) == 0;
    const QString density = gaussian ? QStringLiteral("\u03c1\u1d62 = \u03a3_j exp(\u2212(d_ij/dc)\u00b2)")
                                     : QStringLiteral("\u03c1\u1d62 = the number of points closer than dc");
    return methodsText(QStringLiteral("Clusters were found by density peaks clustering [1] of %1 points: the local "
                                      "density \u03c1 of each point with a %2 kernel (%3, %4), \u03b4 the distance "
                                      "to the nearest point of higher density, %5 points of high \u03c1 and high "
                                      "\u03b4 chosen on the decision graph as cluster centres, and every other point "
                                      "assigned to the cluster of its nearest point of higher density.")
                           .arg(countWords(n), kernel, density, dcDescription)
                           .arg(peaks),
                       {Reference::DensityPeaks});
}

QString hierarchicalMethods(std::size_t n, const QString& description, int clusters) {
    const bool mahalanobis = description.contains(QLatin1String("MHCA"), Qt::CaseInsensitive) ||
                             description.contains(QLatin1String("Mahalanobis"), Qt::CaseInsensitive);
    const bool gpu = description.contains(QLatin1String("cuda"), Qt::CaseInsensitive);
    QString text = QStringLiteral("%1 points were clustered hierarchically (%2)").arg(countWords(n), description);
    if (!mahalanobis)
        text += QStringLiteral(" by agglomerative clustering with that linkage; [1] describes these algorithms.");
    else if (gpu)
        text += QStringLiteral(" with Mahalanobis-average linkage [1], computed on the GPU after [2].");
    else
        text += QStringLiteral(" with Mahalanobis-average linkage [1].");
    if (clusters > 1) text += QStringLiteral(" The tree was cut into %1 clusters.").arg(clusters);
    if (!mahalanobis) return methodsText(text, {Reference::Fastcluster});
    return gpu ? methodsText(text, {Reference::Mhca, Reference::MhcaGpu}) : methodsText(text, {Reference::Mhca});
}

QString vatMethods(std::size_t n, const QString& metric, bool ivat) {
    const QString text = ivat ? QStringLiteral(
                                    "The cluster tendency of %1 points was shown as an iVAT image [2]: the "
                                    "%2 dissimilarities reordered by VAT [1], each replaced by the largest "
                                    "edge on the minimum-spanning-tree path between its two points, computed "
                                    "from the VAT order as in [3].")
                              : QStringLiteral(
                                    "The cluster tendency of %1 points was shown as a VAT image [1]: the %2 "
                                    "dissimilarity matrix reordered along a minimum spanning tree (Prim's "
                                    "order).");
    return ivat ? methodsText(text.arg(countWords(n), metric),
                              {Reference::Vat, Reference::IvatOriginal, Reference::Ivat})
                : methodsText(text.arg(countWords(n), metric), {Reference::Vat});
}

QString flatComparisonMethods(const QString& a, const QString& b, const QString& scores, bool greedy) {
    const QString matching = greedy ? QStringLiteral("by a greedy approximation of the assignment problem")
                                    : QStringLiteral("by the Hungarian method [3]");
    const QString text = QStringLiteral(
                             "The clusterings %1 and %2 were compared by their contingency table, the adjusted "
                             "Rand index [1] and the normalised mutual information (arithmetic normalisation) "
                             "[2]; clusters were matched one to one %3, maximising the sum of the matched "
                             "pairs' F1 scores (%4).")
                             .arg(a, b, matching, scores);
    if (greedy) return methodsText(text, {Reference::Ari, Reference::Nmi});
    return methodsText(text, {Reference::Ari, Reference::Nmi, Reference::Hungarian});
}

QString pointHeightsMethods(const QString& a, const QString& b, const QString& correlations) {
    return methodsText(QStringLiteral("The hierarchical clusterings %1 and %2 were compared point by point [1]: the "
                                      "height of a point is the sum of the heights of all merges whose cluster "
                                      "contains it (%3).")
                           .arg(a, b, correlations),
                       {Reference::MhcaGpu});
}

QString scatterMethods(std::size_t n, const QString& x, const QString& y, const QString& colouring) {
    QString text = QStringLiteral("The scatter plot shows %1 points, %2 against %3").arg(countWords(n), y, x);
    text += colouring.isEmpty() ? QStringLiteral(", coloured by the local point density.")
                                : QStringLiteral(", coloured by %1.").arg(colouring);
    return methodsText(text, {});
}

}  // namespace clusterlens::views

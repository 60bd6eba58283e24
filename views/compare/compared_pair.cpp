#include "compare/compared_pair.hpp"

#include <algorithm>

namespace clusterlens::views {

QString resultOrigin(const QString& name) {
    const qsizetype at = name.lastIndexOf(QStringLiteral(" (k="));
    return at < 0 ? name : name.left(at);
}

std::pair<int, int> chooseComparedPair(const QStringList& names, const QStringList& known, const QString& a,
                                       const QString& b) {
    if (names.isEmpty()) return {-1, -1};
    QString chosenA = a, chosenB = b;
    for (const QString& name : names) {
        if (known.contains(name)) continue;
        if (!chosenB.isEmpty() && resultOrigin(name) == resultOrigin(chosenB))
            chosenB = name;
        else if (!chosenA.isEmpty() && resultOrigin(name) == resultOrigin(chosenA))
            chosenA = name;
        else if (chosenA == chosenB)
            chosenB = name;
    }
    const int indexA = std::max<int>(0, static_cast<int>(names.indexOf(chosenA)));
    int indexB = static_cast<int>(names.indexOf(chosenB));
    if (indexB < 0 || (indexB == indexA && names.size() > 1)) indexB = indexA == 0 ? (names.size() > 1 ? 1 : 0) : 0;
    return {indexA, indexB};
}

}  // namespace clusterlens::views

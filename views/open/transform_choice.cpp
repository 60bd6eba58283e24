#include "open/transform_choice.hpp"

#include <QObject>
#include <QStringList>

namespace clusterlens::views {

namespace {

QString stepLabel(const QString& step) {
    if (step == QLatin1String("zscore")) return QObject::tr("z-score");
    if (step == QLatin1String("log1p")) return QObject::tr("log1p");
    if (step.startsWith(QLatin1String("normalize-total"))) return QObject::tr("normalise-total");
    if (step.startsWith(QLatin1String("pca:"))) return QObject::tr("PCA %1").arg(step.mid(4));
    if (step.startsWith(QLatin1String("asinh")))
        return QObject::tr("arcsinh (cofactor %1)").arg(step.size() > 6 ? step.mid(6) : QStringLiteral("5"));
    return step;
}

}  // namespace

QString TransformChoice::key() const {
    if (cofactors.empty()) return steps;
    QStringList channels;
    for (const ChannelCofactor& c : cofactors)
        channels << QStringLiteral("%1:%2").arg(
            QString::fromStdString(c.channel),
            c.cofactor > 0.0 ? QString::number(c.cofactor, 'g', 10) : QStringLiteral("off"));
    return QStringLiteral("%1 [%2]").arg(steps, channels.join(QStringLiteral(", ")));
}

TransformChoice TransformChoice::fromSpec(const QString& spec) {
    TransformChoice choice;
    choice.steps = spec.trimmed();
    return choice;
}

QString TransformChoice::label() const {
    if (steps.isEmpty()) return QObject::tr("none");
    QStringList parts;
    for (const QString& step : steps.split(QLatin1Char(','), Qt::SkipEmptyParts)) parts << stepLabel(step.trimmed());
    QString text = parts.join(QStringLiteral(", "));
    qsizetype linear = 0;
    for (const ChannelCofactor& c : cofactors) linear += c.cofactor > 0.0 ? 0 : 1;
    const qsizetype own = static_cast<qsizetype>(cofactors.size()) - linear;
    QStringList notes;
    if (own > 0)
        notes << (own == 1 ? QObject::tr("1 channel with its own cofactor")
                           : QObject::tr("%1 channels with their own cofactor").arg(own));
    if (linear > 0) notes << QObject::tr("%1 left linear").arg(linear);
    if (!notes.isEmpty()) text += QStringLiteral("; ") + notes.join(QStringLiteral(", "));
    return text;
}

double TransformChoice::asinhCofactor() const {
    for (const QString& step : steps.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QString s = step.trimmed();
        if (s == QLatin1String("asinh")) return 5.0;
        if (s.startsWith(QLatin1String("asinh:"))) return s.mid(6).toDouble();
    }
    return 0.0;
}

bool TransformChoice::operator==(const TransformChoice& other) const {
    return key() == other.key();
}

}  // namespace clusterlens::views

#pragma once
// The transform the views apply to a dataset as read: an engine transform spec (asinh:COFACTOR,
// zscore, normalize-total, log1p, pca:K, chained with commas) with per-channel arcsinh cofactors.

#include <QMetaType>
#include <QString>

#include <vector>

#include "clusterlens/session/session.hpp"

namespace clusterlens::views {

struct TransformChoice {
    QString steps;  ///< engine spec (clusterlens::applyTransformSpec); empty = none
    /// arcsinh only: channels with their own cofactor; cofactor 0 = the channel is left as read.
    std::vector<ChannelCofactor> cofactors;

    /// The engine spec of the steps ("asinh:150", "normalize-total,log1p"); empty for none.
    QString spec() const { return steps; }
    /// The steps and every per-channel cofactor ("asinh:150 [FSC-A:off, CD3:5]"): equal keys mean
    /// equal values, so a result computed under another key is stale.
    QString key() const;
    /// Steps without per-channel cofactors.
    static TransformChoice fromSpec(const QString& spec);
    /// "arcsinh (cofactor 150; 2 channels own cofactor, 1 linear)", "normalise-total, log1p", "none".
    QString label() const;
    bool isNone() const { return steps.isEmpty(); }
    /// The arcsinh cofactor of the steps ("asinh:150" gives 150, "asinh" 5); 0 when not arcsinh.
    double asinhCofactor() const;
    bool operator==(const TransformChoice& other) const;
};

}  // namespace clusterlens::views

Q_DECLARE_METATYPE(clusterlens::views::TransformChoice)

#pragma once
// Which stored results were computed on other channels or another transform than the ones now
// chosen (ResultInfo::features and ::transform against the current ResultContext), and a marker that
// says so in the combo boxes that offer results: the stale items get a warning icon, a tooltip and
// the text "(stale: computed on other channels)" for accessibility, while their text (the result's
// name, by which the views find results) stays unchanged.

#include <QObject>
#include <QPointer>
#include <QString>

#include <map>
#include <vector>

#include "session/session_results.hpp"

class QComboBox;

namespace clusterlens::views {

/// Why `info` no longer matches `context` ("computed on other channels", "computed with another
/// transform", or both joined); empty when it matches. Results that record neither features nor a
/// transform (labels imported or read from the file) are never stale.
QString staleReason(const ResultInfo& info, const ResultContext& context);

struct StaleResult {
    QString kind;  ///< "linkage", "labeling", "DPC", "VAT"
    QString name;
    QString reason;
};

/// Every stale result of `session`, linkages first, then labelings, DPC runs and VAT orders.
std::vector<StaleResult> staleResults(const Session& session, const ResultContext& context);

class StaleMarker : public QObject {
    Q_OBJECT
public:
    enum class Kind { Linkage, Labeling };
    explicit StaleMarker(QObject* parent = nullptr);

    /// Marks the items of `box` that name stale results of `kind`, now and whenever its items change.
    void watch(QComboBox* box, Kind kind);
    /// Recomputes the stale results and marks every watched box. Returns the results that became stale
    /// since the last update.
    std::vector<StaleResult> update(const Session& session, const ResultContext& context);
    /// The reason `name` of `kind` is stale, or empty.
    QString reason(Kind kind, const QString& name) const;
    /// The text a stale item is marked with: "(stale: computed on other channels)".
    static QString marker(const QString& reason);

private:
    void mark(QComboBox* box, Kind kind) const;

    std::vector<std::pair<QPointer<QComboBox>, Kind>> m_boxes;
    std::map<QString, QString> m_linkages;
    std::map<QString, QString> m_labelings;
    std::map<QString, QString> m_all;  ///< "kind/name" -> reason, to tell what became stale
};

}  // namespace clusterlens::views

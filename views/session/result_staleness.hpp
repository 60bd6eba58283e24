#pragma once
// Which stored results were computed on other channels or another transform than the ones now
// chosen (ResultInfo::features and ::transform against the current ResultContext), and a marker that
// says so in the combo boxes that offer results: the stale items get a warning icon, a tooltip and
// the text "(stale: computed on other channels)" for accessibility, while their text (the result's
// name, by which the views find results) stays unchanged. Views that show one result (the decision
// graph, the VAT image) say it in a StaleBanner over the result.

#include <QObject>
#include <QPointer>
#include <QString>
#include <QWidget>

#include <functional>
#include <map>
#include <vector>

#include "session/session_results.hpp"

class QComboBox;
class QLabel;

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
    enum class Kind { Linkage, Labeling, Dpc, Vat };
    explicit StaleMarker(QObject* parent = nullptr);

    /// Marks the items of `box` that name stale results of `kind`, now and whenever its items change.
    void watch(QComboBox* box, Kind kind);
    /// Recomputes the stale results and marks every watched box, then emits updated(). Returns the
    /// results that became stale since the last update.
    std::vector<StaleResult> update(const Session& session, const ResultContext& context);
    /// The reason `name` of `kind` is stale, or empty.
    QString reason(Kind kind, const QString& name) const;
    /// The text a stale item is marked with: "(stale: computed on other channels)".
    static QString marker(const QString& reason);

Q_SIGNALS:
    /// update() ran: reason() may say otherwise now.
    void updated();

private:
    void mark(QComboBox* box, Kind kind) const;

    std::vector<std::pair<QPointer<QComboBox>, Kind>> m_boxes;
    std::map<QString, QString> m_all;  ///< "kind/name" (StaleResult::kind) -> reason
};

/// The line over a view's one result while it is stale: a warning icon and "Stale: computed on other
/// channels. Compute again to use the current channels and transform." Hidden while the result is
/// current (or there is none).
class StaleBanner : public QWidget {
    Q_OBJECT
public:
    explicit StaleBanner(QWidget* parent = nullptr);
    /// Follows `marker`: after each of its updates, and on refresh(), the banner says whether the result
    /// of `kind` that `shownName` names (empty: none shown) is stale.
    void follow(const StaleMarker* marker, StaleMarker::Kind kind, std::function<QString()> shownName);
    /// Asks the followed marker again (the view shows another result).
    void refresh();
    /// Shows the banner for `reason` (staleReason's text); empty hides it.
    void setReason(const QString& reason);
    const QString& reason() const { return m_reason; }
    /// The banner's text (empty while hidden).
    QString text() const;

private:
    QLabel* m_text;
    QString m_reason;
    QPointer<const StaleMarker> m_marker;
    StaleMarker::Kind m_kind = StaleMarker::Kind::Linkage;
    std::function<QString()> m_shownName;
};

}  // namespace clusterlens::views

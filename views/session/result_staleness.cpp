#include "session/result_staleness.hpp"

#include <QAbstractItemModel>
#include <QApplication>
#include <QComboBox>
#include <QPalette>
#include <QStyle>

#include <algorithm>

namespace clusterlens::views {

namespace {

/// Qt::AccessibleDescriptionRole holds the marker so that the stale state is read out as well as seen.
constexpr int kStaleRole = Qt::AccessibleDescriptionRole;

std::vector<std::string> sorted(std::vector<std::string> values) {
    std::sort(values.begin(), values.end());
    return values;
}

template <typename T>
void collect(const std::vector<T>& results, const QString& kind, const ResultContext& context,
             std::vector<StaleResult>& out) {
    for (const T& result : results) {
        const QString reason = staleReason(result.info, context);
        if (!reason.isEmpty()) out.push_back({kind, QString::fromStdString(result.info.name), reason});
    }
}

}  // namespace

QString staleReason(const ResultInfo& info, const ResultContext& context) {
    if (info.features.empty() && info.transform.empty()) return {};
    QStringList reasons;
    if (!info.features.empty() && sorted(info.features) != sorted(toStdStrings(context.features)))
        reasons << QObject::tr("computed on other channels");
    if (QString::fromStdString(info.transform) != context.transform)
        reasons << QObject::tr("computed with another transform");
    return reasons.join(QStringLiteral(", "));
}

std::vector<StaleResult> staleResults(const Session& session, const ResultContext& context) {
    std::vector<StaleResult> out;
    collect(session.linkages, QStringLiteral("linkage"), context, out);
    collect(session.labelings, QStringLiteral("labeling"), context, out);
    collect(session.dpc, QStringLiteral("DPC"), context, out);
    collect(session.vat, QStringLiteral("VAT"), context, out);
    return out;
}

StaleMarker::StaleMarker(QObject* parent) : QObject(parent) {}

QString StaleMarker::marker(const QString& reason) {
    return tr("(stale: %1)").arg(reason);
}

void StaleMarker::watch(QComboBox* box, Kind kind) {
    m_boxes.emplace_back(box, kind);
    QAbstractItemModel* model = box->model();
    const auto remark = [this, box, kind] { mark(box, kind); };
    connect(model, &QAbstractItemModel::rowsInserted, this, remark);
    connect(model, &QAbstractItemModel::modelReset, this, remark);
    mark(box, kind);
}

std::vector<StaleResult> StaleMarker::update(const Session& session, const ResultContext& context) {
    std::map<QString, QString> all;
    m_linkages.clear();
    m_labelings.clear();
    std::vector<StaleResult> fresh;
    for (const StaleResult& r : staleResults(session, context)) {
        const QString key = r.kind + QLatin1Char('/') + r.name;
        all[key] = r.reason;
        if (!m_all.count(key)) fresh.push_back(r);
        if (r.kind == QLatin1String("linkage")) m_linkages[r.name] = r.reason;
        if (r.kind == QLatin1String("labeling")) m_labelings[r.name] = r.reason;
    }
    m_all = std::move(all);
    for (const auto& [box, kind] : m_boxes)
        if (box) mark(box, kind);
    return fresh;
}

QString StaleMarker::reason(Kind kind, const QString& name) const {
    const auto& map = kind == Kind::Linkage ? m_linkages : m_labelings;
    const auto it = map.find(name);
    return it == map.end() ? QString() : it->second;
}

void StaleMarker::mark(QComboBox* box, Kind kind) const {
    const QIcon warning = QApplication::style()->standardIcon(QStyle::SP_MessageBoxWarning);
    const QColor dim = box->palette().color(QPalette::Disabled, QPalette::Text);
    for (int i = 0; i < box->count(); ++i) {
        const QString why = reason(kind, box->itemText(i));
        const bool stale = !why.isEmpty();
        if (!stale && box->itemData(i, kStaleRole).toString().isEmpty()) continue;
        box->setItemData(i, stale ? marker(why) : QVariant(), kStaleRole);
        box->setItemIcon(i, stale ? warning : QIcon());
        box->setItemData(i, stale ? QVariant(dim) : QVariant(), Qt::ForegroundRole);
        box->setItemData(i, stale ? QVariant(box->itemText(i) + QLatin1Char(' ') + marker(why)) : QVariant(),
                         Qt::ToolTipRole);
    }
    box->update();
}

}  // namespace clusterlens::views

#include "session/result_staleness.hpp"

#include <QAbstractItemModel>
#include <QApplication>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPalette>
#include <QStyle>

#include <algorithm>
#include <utility>

namespace clusterlens::views {

namespace {

/// Qt::AccessibleDescriptionRole holds the marker so that the stale state is read out as well as seen.
constexpr int kStaleRole = Qt::AccessibleDescriptionRole;

/// StaleResult::kind of a marker's kind.
QString kindName(StaleMarker::Kind kind) {
    switch (kind) {
        case StaleMarker::Kind::Linkage:
            return QStringLiteral("linkage");
        case StaleMarker::Kind::Labeling:
            return QStringLiteral("labeling");
        case StaleMarker::Kind::Dpc:
            return QStringLiteral("DPC");
        case StaleMarker::Kind::Vat:
            return QStringLiteral("VAT");
    }
    return {};
}

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
    collect(session.linkages, kindName(StaleMarker::Kind::Linkage), context, out);
    collect(session.labelings, kindName(StaleMarker::Kind::Labeling), context, out);
    collect(session.dpc, kindName(StaleMarker::Kind::Dpc), context, out);
    collect(session.vat, kindName(StaleMarker::Kind::Vat), context, out);
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
    std::vector<StaleResult> fresh;
    for (const StaleResult& r : staleResults(session, context)) {
        const QString key = r.kind + QLatin1Char('/') + r.name;
        all[key] = r.reason;
        if (!m_all.count(key)) fresh.push_back(r);
    }
    m_all = std::move(all);
    for (const auto& [box, kind] : m_boxes)
        if (box) mark(box, kind);
    Q_EMIT updated();
    return fresh;
}

QString StaleMarker::reason(Kind kind, const QString& name) const {
    const auto it = m_all.find(kindName(kind) + QLatin1Char('/') + name);
    return it == m_all.end() ? QString() : it->second;
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

StaleBanner::StaleBanner(QWidget* parent) : QWidget(parent), m_text(new QLabel(this)) {
    auto* icon = new QLabel(this);
    const int size = style()->pixelMetric(QStyle::PM_SmallIconSize);
    icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(size, size));
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::PlainText);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    layout->addWidget(icon, 0, Qt::AlignTop);
    layout->addWidget(m_text, 1);
    // The tooltip background (a pale yellow in most styles) sets the line apart from the form.
    setAutoFillBackground(true);
    QPalette colours = palette();
    colours.setColor(QPalette::Window, colours.color(QPalette::ToolTipBase));
    colours.setColor(QPalette::WindowText, colours.color(QPalette::ToolTipText));
    setPalette(colours);
    setAccessibleName(tr("Stale result"));
    hide();
}

void StaleBanner::follow(const StaleMarker* marker, StaleMarker::Kind kind, std::function<QString()> shownName) {
    if (m_marker) disconnect(m_marker.data(), nullptr, this, nullptr);
    m_marker = marker;
    m_kind = kind;
    m_shownName = std::move(shownName);
    if (m_marker) connect(m_marker.data(), &StaleMarker::updated, this, &StaleBanner::refresh);
    refresh();
}

void StaleBanner::refresh() {
    const QString name = m_shownName ? m_shownName() : QString();
    setReason(m_marker && !name.isEmpty() ? m_marker->reason(m_kind, name) : QString());
}

void StaleBanner::setReason(const QString& reason) {
    m_reason = reason;
    m_text->setText(reason.isEmpty()
                        ? QString()
                        : tr("Stale: %1. Compute again to use the current channels and transform.").arg(reason));
    setAccessibleDescription(m_text->text());
    setVisible(!reason.isEmpty());
}

QString StaleBanner::text() const {
    return m_text->text();
}

}  // namespace clusterlens::views

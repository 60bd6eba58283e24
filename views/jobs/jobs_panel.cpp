#include "jobs/jobs_panel.hpp"

#include <QApplication>
#include <QHBoxLayout>
#include <QListView>
#include <QMouseEvent>
#include <QPainter>
#include <QPushButton>
#include <QStyle>
#include <QVBoxLayout>

#include "jobs/job_runner.hpp"
#include "jobs/jobs_model.hpp"

namespace clusterlens::views {

namespace {

constexpr int kPadding = 4;

bool isRunning(const QModelIndex& index) {
    return index.data(JobsModel::StateRole).toInt() == static_cast<int>(JobState::Running);
}

}  // namespace

QRect JobDelegate::cancelButtonRect(const QRect& rowRect, const QFontMetrics& metrics) {
    const int width = metrics.horizontalAdvance(QStringLiteral("Cancel")) + 4 * kPadding;
    const int height = metrics.height() + 2 * kPadding;
    return QRect(rowRect.right() - kPadding - width, rowRect.center().y() - height / 2, width, height);
}

QSize JobDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex&) const {
    const int line = option.fontMetrics.height();
    return QSize(240, 2 * line + 4 * kPadding + 4);
}

void JobDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const {
    QStyle* style = option.widget ? option.widget->style() : QApplication::style();
    QStyleOptionViewItem background = option;
    initStyleOption(&background, index);
    background.text.clear();
    style->drawControl(QStyle::CE_ItemViewItem, &background, painter, option.widget);

    const bool running = isRunning(index);
    const QFontMetrics& metrics = option.fontMetrics;
    QRect content = option.rect.adjusted(kPadding, kPadding, -kPadding, -kPadding);
    if (running) content.setRight(cancelButtonRect(option.rect, metrics).left() - kPadding);

    const auto state = static_cast<JobState>(index.data(JobsModel::StateRole).toInt());
    const QString status = QStringLiteral("%1  %2").arg(jobStateName(state),
                                                        formatElapsed(index.data(JobsModel::ElapsedRole).toLongLong()));
    const QRect textRect(content.left(), content.top(), content.width(), metrics.height());
    painter->save();
    painter->setPen(option.palette.color(QPalette::Text));
    painter->drawText(textRect, Qt::AlignLeft | Qt::AlignVCenter,
                      metrics.elidedText(index.data(JobsModel::NameRole).toString(), Qt::ElideRight,
                                         textRect.width() - metrics.horizontalAdvance(status) - 8));
    if (state == JobState::Failed) painter->setPen(QColor(0xc0, 0x20, 0x20));
    painter->drawText(textRect, Qt::AlignRight | Qt::AlignVCenter, status);
    painter->restore();

    QStyleOptionProgressBar bar;
    bar.rect = QRect(content.left(), textRect.bottom() + kPadding, content.width(),
                     std::max(6, content.bottom() - textRect.bottom() - kPadding));
    bar.minimum = 0;
    bar.maximum = 1000;
    bar.progress = qRound(index.data(JobsModel::ProgressRole).toDouble() * 1000.0);
    bar.state = option.state | QStyle::State_Horizontal;
    bar.palette = option.palette;
    style->drawControl(QStyle::CE_ProgressBar, &bar, painter, option.widget);

    if (running) {
        QStyleOptionButton button;
        button.rect = cancelButtonRect(option.rect, metrics);
        button.text = tr("Cancel");
        button.state = QStyle::State_Enabled | QStyle::State_Raised;
        button.palette = option.palette;
        style->drawControl(QStyle::CE_PushButton, &button, painter, option.widget);
    }
}

bool JobDelegate::editorEvent(QEvent* event, QAbstractItemModel* model, const QStyleOptionViewItem& option,
                              const QModelIndex& index) {
    if (event->type() == QEvent::MouseButtonRelease && isRunning(index)) {
        const auto* mouse = static_cast<QMouseEvent*>(event);
        if (mouse->button() == Qt::LeftButton &&
            cancelButtonRect(option.rect, option.fontMetrics).contains(mouse->position().toPoint())) {
            Q_EMIT cancelRequested(index);
            return true;
        }
    }
    return QStyledItemDelegate::editorEvent(event, model, option, index);
}

JobsPanel::JobsPanel(JobRunner* runner, QWidget* parent)
    : QWidget(parent), m_runner(runner), m_model(new JobsModel(runner, this)), m_view(new QListView(this)) {
    auto* delegate = new JobDelegate(m_view);
    m_view->setModel(m_model);
    m_view->setItemDelegate(delegate);
    m_view->setSelectionMode(QAbstractItemView::NoSelection);
    m_view->setUniformItemSizes(true);
    m_view->setMouseTracking(true);

    auto* clear = new QPushButton(tr("Clear finished"), this);
    connect(clear, &QPushButton::clicked, m_model, &JobsModel::clearFinished);
    connect(delegate, &JobDelegate::cancelRequested, this,
            [this](const QModelIndex& index) { m_runner->cancel(index.data(JobsModel::IdRole).toULongLong()); });

    auto* buttons = new QHBoxLayout;
    buttons->addStretch();
    buttons->addWidget(clear);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_view);
    layout->addLayout(buttons);
}

}  // namespace clusterlens::views

#pragma once
// Dock content listing the jobs: one row per job with its name, state, elapsed time, a progress
// bar and, while it runs, a Cancel button.

#include <QStyledItemDelegate>
#include <QWidget>

class QListView;

namespace clusterlens::views {

class JobRunner;
class JobsModel;

/// Paints a job row and turns a click on its Cancel button into cancelRequested().
class JobDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;
    bool editorEvent(QEvent* event, QAbstractItemModel* model, const QStyleOptionViewItem& option,
                     const QModelIndex& index) override;
    /// Where the Cancel button of a running row is drawn inside `rowRect`.
    static QRect cancelButtonRect(const QRect& rowRect, const QFontMetrics& metrics);

Q_SIGNALS:
    void cancelRequested(const QModelIndex& index);
};

class JobsPanel : public QWidget {
    Q_OBJECT
public:
    explicit JobsPanel(JobRunner* runner, QWidget* parent = nullptr);
    JobsModel* model() const { return m_model; }
    QListView* view() const { return m_view; }

private:
    JobRunner* m_runner;
    JobsModel* m_model;
    QListView* m_view;
};

}  // namespace clusterlens::views

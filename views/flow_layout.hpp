#pragma once
// A layout that places its items left to right and wraps them onto the next line when the width
// runs out (as words in a paragraph), so that a row of controls stays whole in a narrow dock
// instead of widening it or scrolling. Its minimum width is that of its widest item; its height
// follows the width (heightForWidth), so docks and scroll areas give it the lines it needs.

#include <QLayout>
#include <QList>
#include <QString>

#include <initializer_list>

namespace clusterlens::views {

class FlowLayout : public QLayout {
public:
    explicit FlowLayout(QWidget* parent = nullptr, int spacing = 6);
    ~FlowLayout() override;

    void addItem(QLayoutItem* item) override;
    int count() const override;
    QLayoutItem* itemAt(int index) const override;
    QLayoutItem* takeAt(int index) override;
    Qt::Orientations expandingDirections() const override;
    bool hasHeightForWidth() const override;
    int heightForWidth(int width) const override;
    QSize minimumSize() const override;
    QSize sizeHint() const override;
    void setGeometry(const QRect& rect) override;

private:
    /// Lays the items out in `rect` (moving them only when `apply`); returns the height used.
    int doLayout(const QRect& rect, bool apply) const;

    QList<QLayoutItem*> m_items;
    int m_spacing;
};

/// `field` after its `label` in one widget (a child of `parent`), so that a flow keeps them on one line.
QWidget* labelledField(const QString& label, QWidget* field, QWidget* parent);

/// `widgets` in one row (a child of `parent`) that wraps onto more lines in a narrow column.
QWidget* flowRow(std::initializer_list<QWidget*> widgets, QWidget* parent);

}  // namespace clusterlens::views

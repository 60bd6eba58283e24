#pragma once
// The one editor of a dataset's transform, used by the Open dialog and by the dataset panel: none,
// arcsinh with a cofactor per channel (a table: channel, on/off, transform, cofactor, and "apply to
// all"), the count-matrix steps (normalise-total, log1p, PCA with K components), z-score, or any
// engine transform spec typed in.

#include <QStringList>
#include <QWidget>

#include <optional>

#include "open/transform_choice.hpp"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QSpinBox;
class QStackedWidget;
class QTableWidget;

namespace clusterlens::views {

class TransformTable : public QWidget {
    Q_OBJECT
public:
    enum Method { None, Asinh, Counts, ZScore, Custom };
    enum Column { ChannelColumn, OnColumn, TransformColumn, CofactorColumn };

    explicit TransformTable(QWidget* parent = nullptr);

    /// The channels (feature names as read) the per-channel table lists; keeps the choice's method.
    void setChannels(const QStringList& channels);
    /// Shows `choice` (without emitting changed()).
    void setChoice(const TransformChoice& choice);
    TransformChoice choice() const;

    Method method() const;
    void setMethod(Method method);
    /// arcsinh: the cofactor of one channel (> 0), or off (left as read).
    void setChannelCofactor(const QString& channel, double cofactor);
    void setChannelOn(const QString& channel, bool on);
    /// arcsinh: gives every channel `cofactor` (the "apply to all" button).
    void applyToAll(double cofactor);
    QTableWidget* table() const { return m_table; }

Q_SIGNALS:
    void changed();

private:
    QWidget* buildAsinhPage();
    QWidget* buildCountsPage();
    void fillTable(double fallback, const std::vector<ChannelCofactor>& cofactors);
    int rowOf(const QString& channel) const;
    void updateRow(int row);
    void showMethod();

    QComboBox* m_method;
    QStackedWidget* m_pages;
    QDoubleSpinBox* m_allCofactor;
    QTableWidget* m_table;
    QCheckBox* m_normalize;
    QCheckBox* m_log1p;
    QSpinBox* m_pca;
    QLineEdit* m_custom;
    QStringList m_channels;
    bool m_updating = false;
};

/// A dialog around a TransformTable for the loaded data: the edited choice, or nothing on Cancel.
std::optional<TransformChoice> editTransform(QWidget* parent, const QStringList& channels,
                                             const TransformChoice& current);

}  // namespace clusterlens::views

#pragma once
// The reader options of the Open dialog, as the command line has them: FCS compensation, the label
// column of a table, the HDF5 dataset path, the AnnData embedding read as data, and a subsample with
// its seed. Each row is enabled only where the file's format uses it.

#include <QWidget>

#include "clusterlens/dataset.hpp"
#include "clusterlens/session/session.hpp"

class QCheckBox;
class QComboBox;
class QLineEdit;
class QSpinBox;

namespace clusterlens::views {

class ReadOptionsForm : public QWidget {
    Q_OBJECT
public:
    explicit ReadOptionsForm(QWidget* parent = nullptr);

    /// Offers what `raw` (the file as read) allows and shows `spec`'s choices.
    void setInspected(const Dataset& raw, const DatasetReadSpec& spec);
    /// `spec` with the reader options and the subsample of the form.
    DatasetReadSpec apply(DatasetReadSpec spec) const;

    QCheckBox* compensation() const { return m_compensate; }
    QComboBox* labelColumn() const { return m_labelColumn; }
    QLineEdit* hdf5Dataset() const { return m_dataset; }
    QComboBox* embedding() const { return m_embedding; }
    QSpinBox* subsample() const { return m_subsample; }
    QSpinBox* seed() const { return m_seed; }

Q_SIGNALS:
    /// An option that changes what is read (dataset, embedding, label column) was edited: the file
    /// must be read again before its channels are known.
    void readAgainNeeded();

private:
    QCheckBox* m_compensate;
    QComboBox* m_labelColumn;
    QLineEdit* m_dataset;
    QComboBox* m_embedding;
    QSpinBox* m_subsample;
    QSpinBox* m_seed;
};

}  // namespace clusterlens::views

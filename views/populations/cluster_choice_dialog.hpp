#pragma once
// The dialog behind "Clusters…" of the Populations panel: a labeling of the analysis session and
// some of its clusters (with their sizes), to make one population of.

#include <QDialog>

#include <cstdint>
#include <vector>

class QComboBox;
class QListWidget;

namespace clusterlens::views {

class AnalysisSession;

class ClusterChoiceDialog : public QDialog {
    Q_OBJECT
public:
    /// Offers every labeling of `analysis` except `excluded` (the populations' own labeling).
    ClusterChoiceDialog(const AnalysisSession* analysis, const QString& excluded, QWidget* parent = nullptr);

    QString labeling() const;
    /// The chosen cluster ids, ascending.
    std::vector<std::int32_t> clusters() const;

private:
    void fillClusters();

    const AnalysisSession* m_analysis;
    QComboBox* m_labeling;
    QListWidget* m_clusters;
};

}  // namespace clusterlens::views

#pragma once
// Puts the choices made in the analysis views on the application's one undo stack, beside the
// population commands: the number of clusters a dendrogram or a VAT order is cut into, and the density
// peaks chosen on the decision graph (whose own history is mirrored: each choice is one step here, and
// undoing it undoes it there). A cut the application sets itself (a session opening) is announced with
// expect*Cut and is not recorded.

#include <QObject>
#include <QString>

#include <functional>

class QUndoStack;

namespace clusterlens::views {

class DendrogramPanel;
class DpcPanel;
class VatPanel;

class UndoRecorder : public QObject {
    Q_OBJECT
public:
    UndoRecorder(QUndoStack* undo, DendrogramPanel* dendrogram, VatPanel* vat, DpcPanel* dpc,
                 QObject* parent = nullptr);

    /// The next dendrogram / VAT cut into `k` clusters is the application's, not the user's.
    void expectDendrogramCut(int k) { m_expectedTreeCut = k; }
    void expectVatCut(int k) { m_expectedVatCut = k; }

private:
    /// Records a cut from `last` clusters to `k` unless it is no change, the expected one, or an undo.
    void recordCut(int& last, int& expected, int k, const QString& text, std::function<void(int)> set);
    void onTreeCut(int k);
    void onVatCut();
    void onPeaksIndexChanged(int index);

    QUndoStack* m_undo;
    DendrogramPanel* m_dendrogram;
    VatPanel* m_vat;
    DpcPanel* m_dpc;
    QString m_tree;  // the tree the last cut belongs to
    int m_treeCut = 0;
    int m_expectedTreeCut = 0;
    int m_vatCut = 0;
    int m_expectedVatCut = 0;
    int m_peaksIndex = 0;       // index of the decision graph's own history
    int m_peaksGeneration = 0;  // grows when that history starts again (a new run)
    bool m_applying = false;    // an undo or redo of this recorder is being applied
};

}  // namespace clusterlens::views

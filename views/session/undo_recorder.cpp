#include "session/undo_recorder.hpp"

#include <QUndoCommand>
#include <QUndoStack>

#include <functional>

#include "dendrogram/dendrogram_panel.hpp"
#include "dpc/dpc_panel.hpp"
#include "dpc/peak_choice.hpp"
#include "vat/vat_panel.hpp"

namespace clusterlens::views {

namespace {

/// A step already taken when it is pushed: the first redo() does nothing, later ones take it again.
class TakenStep : public QUndoCommand {
public:
    TakenStep(const QString& text, std::function<void()> undoStep, std::function<void()> redoStep)
        : QUndoCommand(text), m_undo(std::move(undoStep)), m_redo(std::move(redoStep)) {}
    void undo() override { m_undo(); }
    void redo() override {
        if (m_taken) {
            m_taken = false;
            return;
        }
        m_redo();
    }

private:
    std::function<void()> m_undo, m_redo;
    bool m_taken = true;
};

}  // namespace

UndoRecorder::UndoRecorder(QUndoStack* undo, DendrogramPanel* dendrogram, VatPanel* vat, DpcPanel* dpc, QObject* parent)
    : QObject(parent), m_undo(undo), m_dendrogram(dendrogram), m_vat(vat), m_dpc(dpc) {
    connect(m_dendrogram, &DendrogramPanel::treeShown, this, [this](const QString& name) {
        m_tree = name;
        m_treeCut = m_dendrogram->clusterCount();
    });
    connect(m_dendrogram, &DendrogramPanel::cutApplied, this, &UndoRecorder::onTreeCut);
    connect(m_vat, &VatPanel::resultShown, this, [this] { m_vatCut = m_vat->clusterCount(); });
    connect(m_vat, &VatPanel::cutApplied, this, &UndoRecorder::onVatCut);
    QUndoStack* peaks = m_dpc->peakChoice()->undoStack();
    connect(peaks, &QUndoStack::indexChanged, this, &UndoRecorder::onPeaksIndexChanged);
}

void UndoRecorder::recordCut(int& last, int& expected, int k, const QString& text, std::function<void(int)> set) {
    const int from = last;
    last = k;
    if (m_applying || k == from) return;
    if (k == expected) {
        expected = 0;
        return;
    }
    const auto apply = [this, set = std::move(set)](int clusters) {
        m_applying = true;
        set(clusters);
        m_applying = false;
    };
    m_undo->push(new TakenStep(
        text, [apply, from] { apply(from); }, [apply, k] { apply(k); }));
}

void UndoRecorder::onTreeCut(int k) {
    const QString tree = m_tree;
    recordCut(m_treeCut, m_expectedTreeCut, k, tr("Cut the dendrogram into %1 clusters").arg(k),
              [this, tree](int clusters) {
                  if (m_dendrogram->currentLinkage() == tree)
                      m_dendrogram->setClusterCount(clusters);  // else another tree is shown
              });
}

void UndoRecorder::onVatCut() {
    const int k = m_vat->clusterCount();
    recordCut(m_vatCut, m_expectedVatCut, k, tr("Cut the VAT order into %1 clusters").arg(k),
              [this](int clusters) { m_vat->setClusterCount(clusters); });
}

void UndoRecorder::onPeaksIndexChanged(int index) {
    const int before = m_peaksIndex;
    m_peaksIndex = index;
    QUndoStack* peaks = m_dpc->peakChoice()->undoStack();
    if (peaks->count() == 0) {
        // PeakChoice starts its history again for a new run: the steps recorded for the old one go dead.
        ++m_peaksGeneration;
        return;
    }
    // Only a new choice becomes a step here; the decision graph's own undo buttons move within it.
    if (m_applying || index != before + 1 || index != peaks->count()) return;
    const int generation = m_peaksGeneration;
    const auto step = [this, peaks, generation](bool forward) {
        if (generation != m_peaksGeneration) return;  // that decision graph is gone
        m_applying = true;
        if (forward)
            peaks->redo();
        else
            peaks->undo();
        m_peaksIndex = peaks->index();
        m_applying = false;
    };
    m_undo->push(new TakenStep(
        peaks->text(index - 1), [step] { step(false); }, [step] { step(true); }));
}

}  // namespace clusterlens::views

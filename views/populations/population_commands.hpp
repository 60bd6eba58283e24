#pragma once
// The undoable population actions of the application's one undo stack: create, delete (with the
// populations inside it), rename, recolour, show/hide. Each command names populations, never holds
// pointers into the document, so any sequence of undo and redo finds what it changes.

#include <QString>
#include <QUndoCommand>

#include <vector>

#include "clusterlens/session/session.hpp"

namespace clusterlens::views {

class SessionDocument;

class AddPopulationCommand : public QUndoCommand {
public:
    AddPopulationCommand(SessionDocument* document, Population population);
    void redo() override;
    void undo() override;

private:
    SessionDocument* m_document;
    Population m_population;
};

/// Deletes a population and every population inside it.
class RemovePopulationCommand : public QUndoCommand {
public:
    RemovePopulationCommand(SessionDocument* document, const QString& name);
    void redo() override;
    void undo() override;

private:
    struct Removed {
        int position;
        Population population;
    };
    SessionDocument* m_document;
    std::vector<Removed> m_removed;  // ascending position
};

class RenamePopulationCommand : public QUndoCommand {
public:
    RenamePopulationCommand(SessionDocument* document, const QString& from, const QString& to);
    void redo() override;
    void undo() override;

private:
    SessionDocument* m_document;
    QString m_from, m_to;
};

class RecolourPopulationCommand : public QUndoCommand {
public:
    RecolourPopulationCommand(SessionDocument* document, const QString& name, const QString& colour);
    void redo() override;
    void undo() override;

private:
    SessionDocument* m_document;
    QString m_name, m_from, m_to;
};

class ShowPopulationCommand : public QUndoCommand {
public:
    ShowPopulationCommand(SessionDocument* document, const QString& name, bool visible);
    void redo() override;
    void undo() override;

private:
    SessionDocument* m_document;
    QString m_name;
    bool m_visible;
};

}  // namespace clusterlens::views

#pragma once
// Timestamped log of what happened: files loaded, warnings found while reading (e.g. a cut FCS
// DATA segment), jobs that finished, failed or were cancelled.

#include <QWidget>

class QPlainTextEdit;

namespace clusterlens::views {

enum class LogLevel { Info, Warning, Error };

class LogPanel : public QWidget {
    Q_OBJECT
public:
    explicit LogPanel(QWidget* parent = nullptr);

    /// The log as plain text, one entry per line ("[12:03:04] warning: ...").
    QString text() const;
    int entryCount() const { return m_entries; }

public Q_SLOTS:
    void append(clusterlens::views::LogLevel level, const QString& message);
    void info(const QString& message) { append(LogLevel::Info, message); }
    void warning(const QString& message) { append(LogLevel::Warning, message); }
    void error(const QString& message) { append(LogLevel::Error, message); }
    void clear();

Q_SIGNALS:
    /// Emitted for warnings and errors so the window can draw attention to the log.
    void attentionNeeded();

private:
    QPlainTextEdit* m_text;
    int m_entries = 0;
};

}  // namespace clusterlens::views

Q_DECLARE_METATYPE(clusterlens::views::LogLevel)

#include "log_panel.hpp"

#include <QHBoxLayout>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTime>
#include <QVBoxLayout>

namespace clusterlens::views {

namespace {

QString levelName(LogLevel level) {
    switch (level) {
        case LogLevel::Info:
            return QStringLiteral("info");
        case LogLevel::Warning:
            return QStringLiteral("warning");
        case LogLevel::Error:
            return QStringLiteral("error");
    }
    return {};
}

QString levelColor(LogLevel level) {
    switch (level) {
        case LogLevel::Info:
            return QStringLiteral("#404040");
        case LogLevel::Warning:
            return QStringLiteral("#a05a00");
        case LogLevel::Error:
            return QStringLiteral("#c02020");
    }
    return {};
}

}  // namespace

LogPanel::LogPanel(QWidget* parent) : QWidget(parent), m_text(new QPlainTextEdit(this)) {
    m_text->setReadOnly(true);
    m_text->setMaximumBlockCount(5000);
    m_text->setLineWrapMode(QPlainTextEdit::WidgetWidth);

    auto* clearButton = new QPushButton(tr("Clear"), this);
    connect(clearButton, &QPushButton::clicked, this, &LogPanel::clear);
    auto* buttons = new QHBoxLayout;
    buttons->addStretch();
    buttons->addWidget(clearButton);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_text);
    layout->addLayout(buttons);
}

void LogPanel::append(LogLevel level, const QString& message) {
    const QString stamp = QTime::currentTime().toString(QStringLiteral("HH:mm:ss"));
    // Multi-line messages keep their breaks; the HTML keeps the level colour readable at a glance.
    QString body = message.toHtmlEscaped();
    body.replace(QLatin1Char('\n'), QStringLiteral("<br>&nbsp;&nbsp;"));
    m_text->appendHtml(QStringLiteral("<span style=\"color:#808080\">[%1]</span> "
                                      "<span style=\"color:%2\"><b>%3:</b> %4</span>")
                           .arg(stamp, levelColor(level), levelName(level), body));
    ++m_entries;
    if (level != LogLevel::Info) Q_EMIT attentionNeeded();
}

void LogPanel::clear() {
    m_text->clear();
    m_entries = 0;
}

QString LogPanel::text() const {
    return m_text->toPlainText();
}

}  // namespace clusterlens::views

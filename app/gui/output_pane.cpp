// SPDX-License-Identifier: Apache-2.0
#include "output_pane.h"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QTextCursor>
#include <QVBoxLayout>

namespace moat::gui {

namespace {

constexpr int kDefaultScrollback = 10000;

QTextCharFormat formatOf(const AnsiStyle& style, const QPalette& palette)
{
    QTextCharFormat format;
    QColor fg = style.foreground.isValid() ? style.foreground : palette.color(QPalette::Text);
    QColor bg = style.background;
    if (style.inverse) {
        const QColor oldFg = fg;
        fg = bg.isValid() ? bg : palette.color(QPalette::Base);
        bg = oldFg;
    }
    format.setForeground(fg);
    if (bg.isValid()) {
        format.setBackground(bg);
    }
    format.setFontWeight(style.bold ? QFont::Bold : QFont::Normal);
    format.setFontItalic(style.italic);
    format.setFontUnderline(style.underline);
    return format;
}

}  // namespace

OutputPane::OutputPane(QWidget* parent)
    : QWidget(parent),
      view_(new QPlainTextEdit(this)),
      input_(new QLineEdit(this)),
      send_(new QPushButton(tr("Sen&d"), this)),
      interrupt_(new QPushButton(tr("&Interrupt"), this))
{
    view_->setReadOnly(true);
    view_->setUndoRedoEnabled(false);
    view_->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    view_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    view_->setMaximumBlockCount(kDefaultScrollback);
    view_->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    view_->setAccessibleName(tr("Agent output"));
    view_->setFocusPolicy(Qt::StrongFocus);

    input_->setAccessibleName(tr("Input to the agent"));
    input_->setPlaceholderText(tr("Type a line for the agent and press Enter"));
    input_->setFont(view_->font());
    send_->setAccessibleName(tr("Send the line to the agent"));
    interrupt_->setAccessibleName(tr("Send Ctrl+C to the agent"));
    interrupt_->setToolTip(tr("Sends an interrupt (Ctrl+C) to the agent's terminal"));

    auto* label = new QLabel(tr("Inp&ut:"), this);
    label->setBuddy(input_);
    auto* inputRow = new QHBoxLayout;
    inputRow->addWidget(label);
    inputRow->addWidget(input_, 1);
    inputRow->addWidget(send_);
    inputRow->addWidget(interrupt_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(view_, 1);
    layout->addLayout(inputRow);
    setFocusProxy(input_);

    connect(input_, &QLineEdit::returnPressed, this, &OutputPane::submit);
    connect(send_, &QPushButton::clicked, this, &OutputPane::submit);
    connect(interrupt_, &QPushButton::clicked, this, [this] { emit inputEntered(QByteArray("\x03", 1)); });
}

void OutputPane::setScrollbackLines(int lines)
{
    view_->setMaximumBlockCount(std::max(lines, 1));
}

int OutputPane::scrollbackLines() const
{
    return view_->maximumBlockCount();
}

void OutputPane::setInputEnabled(bool enabled)
{
    input_->setEnabled(enabled);
    send_->setEnabled(enabled);
    interrupt_->setEnabled(enabled);
}

QString OutputPane::plainText() const
{
    return view_->toPlainText();
}

void OutputPane::appendOutput(const QByteArray& bytes)
{
    QScrollBar* bar = view_->verticalScrollBar();
    const bool following = bar->value() >= bar->maximum() - 2;
    QTextCursor cursor(view_->document());
    cursor.movePosition(QTextCursor::End);
    cursor.beginEditBlock();
    for (const AnsiRun& run : decoder_.feed(bytes)) {
        cursor.insertText(run.text, formatOf(run.style, view_->palette()));
    }
    cursor.endEditBlock();
    if (following) {
        bar->setValue(bar->maximum());  // stay at the bottom unless the user scrolled up
    }
}

void OutputPane::clear()
{
    view_->clear();
    decoder_.reset();
}

void OutputPane::submit()
{
    if (!input_->isEnabled()) {
        return;
    }
    emit inputEntered(input_->text().toUtf8() + '\n');
    input_->clear();
}

}  // namespace moat::gui

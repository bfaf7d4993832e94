// SPDX-License-Identifier: Apache-2.0
#include "approval_prompt.h"

#include "allow_rule_dialog.h"
#include "approval_queue.h"
#include "approval_text.h"
#include "untrusted_text.h"

#include <QApplication>
#include <QButtonGroup>
#include <QCloseEvent>
#include <QFont>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalBlocker>
#include <QTimer>
#include <QVBoxLayout>
#include <QWindow>

#include <algorithm>

#include "policy/profile.h"

namespace moat::gui {

namespace {

constexpr int kTickMs = 200;
constexpr int kReasonChars = 600;

QLabel* plainLabel(QWidget* parent, const QString& objectName)
{
    auto* label = new QLabel(parent);
    label->setObjectName(objectName);
    // The agent's text is never interpreted: no HTML, no links, no images.
    label->setTextFormat(Qt::PlainText);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    label->setFocusPolicy(Qt::TabFocus);
    return label;
}

}  // namespace

ApprovalPrompt::ApprovalPrompt(ApprovalQueue* queue, QWidget* parent)
    : QWidget(parent),
      queue_(queue),
      profileScope_(QString::fromStdString(userProfileDir()), QString::fromStdString(builtinProfileDir()))
{
    // A window of its own that does not take the focus when it appears.
    setWindowFlags(Qt::Window | Qt::WindowStaysOnTopHint | Qt::WindowDoesNotAcceptFocus);
    setAttribute(Qt::WA_ShowWithoutActivating);
    setWindowTitle(tr("moat: an agent asks for approval"));
    setAccessibleName(tr("Approval requests"));
    buildUi();

    arm_ = new QTimer(this);
    arm_->setSingleShot(true);
    arm_->setInterval(kArmMs);
    connect(arm_, &QTimer::timeout, this, [this] {
        approve_->setEnabled(true);
        deny_->setEnabled(true);
    });
    ticker_ = new QTimer(this);
    ticker_->setInterval(kTickMs);
    connect(ticker_, &QTimer::timeout, this, &ApprovalPrompt::tick);

    connect(queue_, &ApprovalQueue::entryAdded, this, &ApprovalPrompt::sync);
    connect(queue_, &ApprovalQueue::entryChanged, this, &ApprovalPrompt::sync);
    connect(queue_, &ApprovalQueue::entryRemoved, this, &ApprovalPrompt::sync);
    connect(queue_, &ApprovalQueue::entryRemoved, this, [this](const QString& key) {
        // Decided elsewhere, or timed out, while its confirmation is open:
        // nothing is written for a request that no longer waits.
        if (confirmation_ && key == confirmationKey_) {
            confirmation_->reject();
        }
    });
    connect(queue_, &ApprovalQueue::answerFailed, this, [this](const QString&, const QString& message) {
        status_->setText(message);
        sync();
    });
    qApp->installEventFilter(this);
    sync();
}

ApprovalPrompt::~ApprovalPrompt()
{
    qApp->removeEventFilter(this);
}

void ApprovalPrompt::buildUi()
{
    list_ = new QListWidget(this);
    list_->setObjectName(QStringLiteral("queue"));
    list_->setAccessibleName(tr("Waiting requests"));
    list_->setToolTip(tr("Requests waiting for an answer; the same request from the same session is listed once."));
    connect(list_, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row >= 0) {
            currentKey_ = list_->item(row)->data(Qt::UserRole).toString();
            showEntry(queue_->entry(currentKey_), true);
        }
    });

    heading_ = plainLabel(this, QStringLiteral("heading"));
    heading_->setAccessibleName(tr("Session asking"));
    what_ = plainLabel(this, QStringLiteral("what"));
    what_->setAccessibleName(tr("What is asked for"));
    QFont mono = what_->font();
    mono.setFamily(QStringLiteral("monospace"));
    mono.setStyleHint(QFont::Monospace);
    what_->setFont(mono);
    commandLabel_ = new QLabel(tr("Command to run in the new sandbox:"), this);
    command_ = plainLabel(this, QStringLiteral("command"));
    command_->setAccessibleName(tr("Command to run in the new sandbox"));
    command_->setFont(mono);
    reasonLabel_ = new QLabel(tr("The agent's reason, in its own words (not checked by moat):"), this);
    reason_ = plainLabel(this, QStringLiteral("reason"));
    reason_->setAccessibleName(tr("The agent's stated reason, untrusted"));
    reason_->setFrameShape(QFrame::StyledPanel);
    policy_ = plainLabel(this, QStringLiteral("policy"));
    policy_->setAccessibleName(tr("Why a person is asked"));
    repeated_ = plainLabel(this, QStringLiteral("repeated"));
    repeated_->setAccessibleName(tr("How often it was asked"));

    auto* scopeBox = new QGroupBox(tr("Approve for"), this);
    scopeBox->setAccessibleName(tr("Scope of an approval"));
    once_ = new QRadioButton(tr("&Once"), scopeBox);
    once_->setObjectName(QStringLiteral("scopeOnce"));
    once_->setAccessibleName(tr("Approve this request only"));
    once_->setChecked(true);
    session_ = new QRadioButton(tr("This &session"), scopeBox);
    session_->setObjectName(QStringLiteral("scopeSession"));
    session_->setAccessibleName(tr("Approve this request and the same request from this session later"));
    profile_ = new QRadioButton(tr("Always for this &profile"), scopeBox);
    profile_->setObjectName(QStringLiteral("scopeProfile"));
    profile_->setAccessibleName(tr("Approve now and add the hosts to this session's profile"));
    profile_->setEnabled(false);
    scopes_ = new QButtonGroup(this);
    scopes_->addButton(once_);
    scopes_->addButton(session_);
    scopes_->addButton(profile_);
    auto* scopeLayout = new QVBoxLayout(scopeBox);
    scopeLayout->addWidget(once_);
    scopeLayout->addWidget(session_);
    scopeLayout->addWidget(profile_);

    countdown_ = new QLabel(this);
    countdown_->setObjectName(QStringLiteral("countdown"));
    countdown_->setAccessibleName(tr("Time left before the request is denied"));
    status_ = plainLabel(this, QStringLiteral("status"));
    status_->setAccessibleName(tr("Status"));

    deny_ = new QPushButton(tr("&Deny"), this);
    deny_->setObjectName(QStringLiteral("deny"));
    deny_->setAccessibleName(tr("Deny the request"));
    approve_ = new QPushButton(tr("&Approve"), this);
    approve_->setObjectName(QStringLiteral("approve"));
    approve_->setAccessibleName(tr("Approve the request"));
    for (QPushButton* button : {deny_, approve_}) {
        // No default button: Return must not answer anything.
        button->setAutoDefault(false);
        button->setDefault(false);
    }
    connect(deny_, &QPushButton::clicked, this, [this] { answer(false); });
    connect(approve_, &QPushButton::clicked, this, [this] { answer(true); });

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(countdown_, 1);
    buttons->addWidget(deny_);
    buttons->addWidget(approve_);

    auto* details = new QVBoxLayout;
    details->addWidget(heading_);
    details->addWidget(what_);
    details->addWidget(commandLabel_);
    details->addWidget(command_);
    details->addWidget(reasonLabel_);
    details->addWidget(reason_);
    details->addWidget(policy_);
    details->addWidget(repeated_);
    details->addWidget(scopeBox);
    details->addWidget(status_);
    details->addStretch(1);
    details->addLayout(buttons);

    auto* layout = new QHBoxLayout(this);
    layout->addWidget(list_);
    layout->addLayout(details, 2);

    setTabOrder(list_, what_);
    setTabOrder(what_, command_);
    setTabOrder(command_, reason_);
    setTabOrder(reason_, once_);
    setTabOrder(once_, session_);
    setTabOrder(session_, profile_);
    setTabOrder(profile_, deny_);
    setTabOrder(deny_, approve_);
}

void ApprovalPrompt::present()
{
    sync();
    if (currentKey_.isEmpty()) {
        return;
    }
    // The user asked for it: the window may take the focus now.
    focusAllowed_ = false;
    allowFocus();
    raise();
}

void ApprovalPrompt::setCountdownSeconds(int seconds)
{
    countdownSeconds_ = std::max(seconds, 1);
    if (const ApprovalEntry* entry = queue_->entry(currentKey_)) {
        restartCountdown(*entry);
    }
}

qint64 ApprovalPrompt::remainingMs() const
{
    return remainingMs_;
}

bool ApprovalPrompt::isArmed() const
{
    return approve_->isEnabled() && !arm_->isActive();
}

AllowRuleDialog* ApprovalPrompt::confirmation() const
{
    return confirmation_.data();
}

void ApprovalPrompt::setProfileDirs(const QString& userDir, const QString& builtinDir)
{
    profileScope_ = ProfileScope(userDir, builtinDir);
    showEntry(queue_->entry(currentKey_), false);
}

void ApprovalPrompt::sync()
{
    const QString previousKey = currentKey_;
    QStringList keys;
    const QSignalBlocker blocker(list_);
    list_->clear();
    for (const ApprovalEntry& entry : queue_->entries()) {
        if (entry.answering) {
            continue;
        }
        auto* item = new QListWidgetItem(ApprovalText::summary(entry), list_);
        item->setData(Qt::UserRole, entry.key);
        keys.append(entry.key);
    }
    list_->setVisible(keys.size() > 1);
    if (keys.isEmpty()) {
        currentKey_.clear();
        ticker_->stop();
        arm_->stop();
        hide();
        return;
    }
    if (!keys.contains(currentKey_)) {
        currentKey_ = keys.first();
    }
    list_->setCurrentRow(static_cast<int>(keys.indexOf(currentKey_)));
    const ApprovalEntry* entry = queue_->entry(currentKey_);
    const bool changed = currentKey_ != previousKey || entry->revision != currentRevision_;
    if (!isVisible()) {
        // Appears without the keyboard focus, every time.
        focusAllowed_ = false;
        show();
        if (QWindow* window = windowHandle()) {
            window->setFlag(Qt::WindowDoesNotAcceptFocus, true);
        }
    }
    showEntry(entry, changed);
}

void ApprovalPrompt::showEntry(const ApprovalEntry* entry, bool changed)
{
    if (!entry) {
        return;
    }
    const bool http = entry->kind == QLatin1String("http");
    heading_->setText(http ? tr("Session %1 sent a request that one of your ask rules holds:")
                                 .arg(ApprovalText::session(*entry))
                           : tr("Session %1 asks for a new sandbox with:").arg(ApprovalText::session(*entry)));
    what_->setText(ApprovalText::what(*entry));
    commandLabel_->setVisible(!http);
    command_->setVisible(!http);
    command_->setText(entry->command.isEmpty() ? tr("(the same command again)") : shownUntrustedList(entry->command));
    reasonLabel_->setVisible(!http);
    reason_->setVisible(!http);
    // Quoted, so that it reads as the agent's words and not moat's.
    reason_->setText(tr("“%1”").arg(shownUntrusted(entry->reason, kReasonChars)));
    if (http) {
        policy_->setText(tr("Your rule: %1").arg(shownUntrusted(entry->http.value(QLatin1String("rule")).toString())));
    } else {
        policy_->setText(entry->policy.isEmpty() ? QString() : tr("policy.toml: %1").arg(shownUntrusted(entry->policy)));
    }
    repeated_->setVisible(entry->requestIds.size() > 1);
    repeated_->setText(tr("Asked %n times; one answer answers all.", nullptr, static_cast<int>(entry->requestIds.size())));
    // "This session" makes moatd approve the same held HTTP request from the
    // same session later; an approved `moat request` ends the session (its
    // successor takes over), so there is no later for it.
    session_->setEnabled(http);
    session_->setToolTip(http ? QString()
                              : tr("An approved request starts a new sandbox in place of this session: there is "
                                   "no later request from this session to approve."));
    const QString problem = profileScope_.problem(*entry);
    profile_->setEnabled(problem.isEmpty());
    profile_->setToolTip(problem.isEmpty()
                             ? tr("Approve now, and add %1 to the profile %2 once you have seen the file's new text: "
                                  "sessions started with --profile %2 may then reach it without asking.")
                                   .arg(ProfileScope::hosts(*entry).join(QStringLiteral(", ")), entry->profile)
                             : problem);
    if (!profile_->isEnabled() && profile_->isChecked()) {
        once_->setChecked(true);
    }
    if (!changed) {
        return;
    }
    currentRevision_ = entry->revision;
    once_->setChecked(true);
    status_->clear();
    // What is shown changed: a click or key meant for the old text does nothing.
    approve_->setEnabled(false);
    deny_->setEnabled(false);
    arm_->start();
    restartCountdown(*entry);
}

void ApprovalPrompt::restartCountdown(const ApprovalEntry& entry)
{
    remainingMs_ = countdownSeconds_ * 1000LL;
    if (entry.expires.isValid()) {
        remainingMs_ = std::min(remainingMs_, QDateTime::currentDateTimeUtc().msecsTo(entry.expires));
    }
    paused_ = false;
    sinceTick_.start();
    ticker_->start();
    tick();
}

void ApprovalPrompt::tick()
{
    const qint64 elapsed = sinceTick_.restart();
    if (currentKey_.isEmpty()) {
        ticker_->stop();
        return;
    }
    if (paused_) {
        const ApprovalEntry* entry = queue_->entry(currentKey_);
        countdown_->setText(entry && entry->expires.isValid()
                                ? tr("Countdown paused; moatd denies it at %1 if nobody answers.")
                                      .arg(QLocale().toString(entry->expires.toLocalTime().time(), QLocale::ShortFormat))
                                : tr("Countdown paused."));
        return;
    }
    remainingMs_ -= elapsed;
    if (remainingMs_ <= 0) {
        ticker_->stop();
        // The countdown ends in a deny, never an approval.
        queue_->answer(currentKey_, false, ApprovalScope::Once);
        return;
    }
    countdown_->setText(tr("Denied in %n s unless you answer.", nullptr, static_cast<int>((remainingMs_ + 999) / 1000)));
}

void ApprovalPrompt::pause()
{
    if (!paused_ && !currentKey_.isEmpty()) {
        paused_ = true;
        tick();
    }
}

void ApprovalPrompt::allowFocus()
{
    if (focusAllowed_) {
        return;
    }
    focusAllowed_ = true;
    if (QWindow* window = windowHandle()) {
        window->setFlag(Qt::WindowDoesNotAcceptFocus, false);
    }
    activateWindow();
}

void ApprovalPrompt::answer(bool approve)
{
    if (currentKey_.isEmpty() || !isArmed()) {
        return;
    }
    if (approve && profile_->isChecked() && profile_->isEnabled()) {
        confirmProfile();
        return;
    }
    ApprovalScope scope = ApprovalScope::Once;
    // A deny has no scope (moatd refuses one): it answers this request only.
    if (approve && session_->isChecked() && session_->isEnabled()) {
        scope = ApprovalScope::Session;
    }
    queue_->answer(currentKey_, approve, scope);
}

void ApprovalPrompt::confirmProfile()
{
    const ApprovalEntry* entry = queue_->entry(currentKey_);
    if (!entry || confirmation_) {
        return;
    }
    auto* dialog = new AllowRuleDialog(ProfileScope::hosts(*entry), profileScope_.userDir(), {}, this);
    dialog->setObjectName(QStringLiteral("profileConfirmation"));
    dialog->setWindowTitle(tr("Always for the profile %1").arg(entry->profile));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->lockProfile(entry->profile);
    confirmation_ = dialog;
    confirmationKey_ = currentKey_;
    connect(dialog, &QDialog::finished, this, &ApprovalPrompt::onConfirmed);
    status_->setText(tr("Check the profile's new text; nothing is approved until it is written."));
    dialog->open();  // window-modal: the prompt takes no answer meanwhile
}

void ApprovalPrompt::onConfirmed(int result)
{
    const QString key = confirmationKey_;
    const QString path = confirmation_ ? confirmation_->plan().path : QString();
    confirmationKey_.clear();
    const ApprovalEntry* entry = queue_->entry(key);
    if (result != QDialog::Accepted) {
        if (entry) {
            status_->setText(tr("Nothing was written and nothing approved; the request still waits."));
        }
        return;
    }
    if (!entry || entry->answering) {
        // The file is written, but the request was decided in between.
        status_->setText(tr("%1 now allows the hosts, but moatd decided the request meanwhile.").arg(path));
        return;
    }
    status_->setText(tr("%1 now allows the hosts; the request is approved.").arg(path));
    queue_->answer(key, true, ApprovalScope::Profile);
}

bool ApprovalPrompt::eventFilter(QObject* watched, QEvent* event)
{
    auto* widget = qobject_cast<QWidget*>(watched);
    if (widget && (widget == this || isAncestorOf(widget))) {
        switch (event->type()) {
            case QEvent::MouseButtonPress:
                allowFocus();
                pause();
                break;
            case QEvent::KeyPress:
            case QEvent::Wheel:
                pause();
                break;
            default:
                break;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void ApprovalPrompt::closeEvent(QCloseEvent* event)
{
    // Closing hides the window; the requests wait on (the tray shows them
    // again) and the countdown still ends in a deny.
    event->ignore();
    hide();
}

}  // namespace moat::gui

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "profile_scope.h"

#include <QElapsedTimer>
#include <QPointer>
#include <QString>
#include <QWidget>

class QButtonGroup;
class QLabel;
class QListWidget;
class QPushButton;
class QRadioButton;
class QTimer;

namespace moat::gui {

class AllowRuleDialog;
class ApprovalQueue;
struct ApprovalEntry;

// The one window that answers the approval queue (not one per request):
// the waiting entries on the left, the selected one's details on the right,
// Deny and Approve, a scope, and a countdown that ends in Deny.
//
// It is shown when an entry is waiting and hidden when none is; it never
// takes the keyboard focus on its own (Qt::WA_ShowWithoutActivating,
// Qt::WindowDoesNotAcceptFocus until the user clicks into it), so that text
// being typed elsewhere cannot land in it. Approve and Deny are disabled for
// kArmMs after an entry appears or what it shows changes: a keypress meant
// for another window, or a click at the moment the text changes under the
// pointer, answers nothing. There is no default button.
//
// "Always for this profile" (ProfileScope says when it is offered) first
// shows the session's profile file as it will read with the hosts added
// (AllowRuleDialog, window-modal); only once it is written is the request
// approved, with the scope "profile" (moatd records it). Cancel writes and
// answers nothing: the request waits on.
//
// Trust: everything the agent wrote is shown through shownUntrusted() in
// labels with Qt::PlainText (never rich text).
class ApprovalPrompt : public QWidget
{
    Q_OBJECT
public:
    static constexpr int kArmMs = 1000;

    explicit ApprovalPrompt(ApprovalQueue* queue, QWidget* parent = nullptr);
    ~ApprovalPrompt() override;

    // Shows the window with the focus, at the user's request (the tray, a
    // menu); does nothing when no request waits.
    void present();

    // How long a person has before the shown entry is denied; moatd's own
    // deadline is never exceeded. Default 60 s.
    void setCountdownSeconds(int seconds);
    // The entry shown (its merge key), or empty.
    QString currentKey() const { return currentKey_; }
    bool isCountdownPaused() const { return paused_; }
    // Milliseconds left before the shown entry is denied.
    qint64 remainingMs() const;
    // Whether Approve and Deny take input (false in the first kArmMs).
    bool isArmed() const;
    // Where "always for this profile" looks for and writes profiles
    // (default: userProfileDir() and builtinProfileDir()).
    void setProfileDirs(const QString& userDir, const QString& builtinDir);
    // The open confirmation of "always for this profile", or null.
    AllowRuleDialog* confirmation() const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

private:
    void buildUi();
    void sync();
    void showEntry(const ApprovalEntry* entry, bool changed);
    void restartCountdown(const ApprovalEntry& entry);
    void tick();
    void pause();
    void allowFocus();
    void answer(bool approve);
    void confirmProfile();
    void onConfirmed(int result);

    ApprovalQueue* queue_ = nullptr;
    QListWidget* list_ = nullptr;
    QLabel* heading_ = nullptr;
    QLabel* what_ = nullptr;
    QLabel* commandLabel_ = nullptr;
    QLabel* command_ = nullptr;
    QLabel* reasonLabel_ = nullptr;
    QLabel* reason_ = nullptr;
    QLabel* policy_ = nullptr;
    QLabel* repeated_ = nullptr;
    QRadioButton* once_ = nullptr;
    QRadioButton* session_ = nullptr;
    QRadioButton* profile_ = nullptr;
    QButtonGroup* scopes_ = nullptr;
    QLabel* countdown_ = nullptr;
    QLabel* status_ = nullptr;
    QPushButton* deny_ = nullptr;
    QPushButton* approve_ = nullptr;
    QTimer* arm_ = nullptr;
    QTimer* ticker_ = nullptr;
    ProfileScope profileScope_;
    QPointer<AllowRuleDialog> confirmation_;
    QString confirmationKey_;

    QString currentKey_;
    quint64 currentRevision_ = 0;
    int countdownSeconds_ = 60;
    qint64 remainingMs_ = 0;
    QElapsedTimer sinceTick_;
    bool paused_ = false;
    bool focusAllowed_ = false;
};

}  // namespace moat::gui

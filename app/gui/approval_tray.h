// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDBusConnection>
#include <QHash>
#include <QObject>
#include <QString>

class QSystemTrayIcon;
class QMenu;

namespace moat::gui {

class ApprovalQueue;

// The approval queue outside the window: a tray icon showing how many
// approvals wait (when the desktop has a tray), and a desktop notification
// per waiting entry through org.freedesktop.Notifications on `bus`, closed
// again when moatd decides it. Clicking either asks for the prompt
// (showPromptRequested; the application shows its ApprovalPrompt).
//
// A notification carries a fixed summary and one short line: the session
// and what it asks, escaped (control characters, and the markup some
// notification servers interpret). The agent's reason is never in it.
class ApprovalTray : public QObject
{
    Q_OBJECT
public:
    explicit ApprovalTray(ApprovalQueue* queue, const QDBusConnection& bus = QDBusConnection::sessionBus(),
                          QObject* parent = nullptr);
    ~ApprovalTray() override;

    // Null when the desktop has no system tray.
    QSystemTrayIcon* trayIcon() const { return tray_; }
    // The icon's tooltip, as shown (also without a tray).
    QString toolTip() const { return toolTip_; }

signals:
    void showPromptRequested();

private slots:
    // org.freedesktop.Notifications' ActionInvoked, for any notification
    // on the bus: only ours count.
    void onActionInvoked(uint id, const QString& action);

private:
    void updateCount(int count);
    void notify(const QString& key);
    void closeNotification(const QString& key);

    ApprovalQueue* queue_ = nullptr;
    QDBusConnection bus_;
    QSystemTrayIcon* tray_ = nullptr;
    QMenu* menu_ = nullptr;
    QString toolTip_;
    QHash<QString, uint> notificationOf_;  // entry key -> notification id
};

}  // namespace moat::gui

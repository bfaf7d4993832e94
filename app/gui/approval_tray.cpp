// SPDX-License-Identifier: Apache-2.0
#include "approval_tray.h"

#include "approval_queue.h"
#include "approval_text.h"

#include <QDBusMessage>
#include <QDBusPendingCallWatcher>
#include <QDBusPendingReply>
#include <QGuiApplication>
#include <QMenu>
#include <QPainter>
#include <QPalette>
#include <QSystemTrayIcon>

namespace moat::gui {

namespace {

const QString kNotifications = QStringLiteral("org.freedesktop.Notifications");
const QString kNotificationsPath = QStringLiteral("/org/freedesktop/Notifications");
constexpr int kSummaryChars = 120;

// A round badge with the count, drawn at two sizes for high-DPI trays.
QIcon countIcon(int count)
{
    QIcon icon;
    for (const int size : {32, 64}) {
        QPixmap pixmap(size, size);
        pixmap.fill(Qt::transparent);
        QPainter painter(&pixmap);
        painter.setRenderHint(QPainter::Antialiasing);
        // Amber when something waits, grey otherwise: readable on dark and light panels.
        painter.setBrush(count > 0 ? QColor(0xe0, 0x8a, 0x00) : QColor(0x80, 0x80, 0x80));
        painter.setPen(Qt::NoPen);
        painter.drawEllipse(QRectF(1, 1, size - 2, size - 2));
        if (count > 0) {
            QFont font = painter.font();
            font.setBold(true);
            font.setPixelSize(size * (count > 9 ? 2 : 3) / 5);
            painter.setFont(font);
            painter.setPen(Qt::black);
            painter.drawText(pixmap.rect(), Qt::AlignCenter, count > 99 ? QStringLiteral("99+") : QString::number(count));
        }
        painter.end();
        icon.addPixmap(pixmap);
    }
    return icon;
}

}  // namespace

ApprovalTray::ApprovalTray(ApprovalQueue* queue, const QDBusConnection& bus, QObject* parent)
    : QObject(parent), queue_(queue), bus_(bus)
{
    if (QSystemTrayIcon::isSystemTrayAvailable()) {
        tray_ = new QSystemTrayIcon(this);
        menu_ = new QMenu;
        QAction* show = menu_->addAction(tr("Show approval requests"));
        connect(show, &QAction::triggered, this, &ApprovalTray::showPromptRequested);
        tray_->setContextMenu(menu_);
        connect(tray_, &QSystemTrayIcon::activated, this, [this](QSystemTrayIcon::ActivationReason reason) {
            if (reason == QSystemTrayIcon::Trigger || reason == QSystemTrayIcon::DoubleClick) {
                emit showPromptRequested();
            }
        });
        tray_->show();
    }
    connect(queue_, &ApprovalQueue::pendingCountChanged, this, &ApprovalTray::updateCount);
    connect(queue_, &ApprovalQueue::entryAdded, this, &ApprovalTray::notify);
    connect(queue_, &ApprovalQueue::entryRemoved, this, &ApprovalTray::closeNotification);
    bus_.connect(kNotifications, kNotificationsPath, kNotifications, QStringLiteral("ActionInvoked"), this,
                 SLOT(onActionInvoked(uint, QString)));
    updateCount(queue_->pendingCount());
}

ApprovalTray::~ApprovalTray()
{
    delete menu_;
}

void ApprovalTray::updateCount(int count)
{
    toolTip_ = count > 0 ? tr("moat: %n approval request(s) waiting", nullptr, count)
                         : tr("moat: no approval requests waiting");
    if (tray_) {
        tray_->setIcon(countIcon(count));
        tray_->setToolTip(toolTip_);
    }
}

void ApprovalTray::notify(const QString& key)
{
    const ApprovalEntry* entry = queue_->entry(key);
    if (!entry || !bus_.isConnected()) {
        return;
    }
    // Escaped twice over: control characters by summary(), and the markup
    // a server with "body-markup" would render.
    const QString body = ApprovalText::summary(*entry).left(kSummaryChars).toHtmlEscaped();
    QDBusMessage call =
        QDBusMessage::createMethodCall(kNotifications, kNotificationsPath, kNotifications, QStringLiteral("Notify"));
    call << QStringLiteral("moat-manager") << uint(0) << QStringLiteral("dialog-question")
         << tr("An agent asks for approval") << body
         << QStringList{QStringLiteral("default"), tr("Show")}
         << QVariantMap{{QStringLiteral("urgency"), QVariant::fromValue<uchar>(1)},
                        {QStringLiteral("desktop-entry"), QStringLiteral("moat-manager")}}
         << int(-1);
    auto* watcher = new QDBusPendingCallWatcher(bus_.asyncCall(call), this);
    connect(watcher, &QDBusPendingCallWatcher::finished, this, [this, key](QDBusPendingCallWatcher* finished) {
        finished->deleteLater();
        const QDBusPendingReply<uint> reply = *finished;
        if (reply.isError()) {
            return;  // no notification server: the tray and the window still show it
        }
        if (queue_->entry(key)) {
            notificationOf_.insert(key, reply.value());
        } else {
            // Decided before the server answered.
            bus_.asyncCall(QDBusMessage::createMethodCall(kNotifications, kNotificationsPath, kNotifications,
                                                          QStringLiteral("CloseNotification"))
                           << reply.value());
        }
    });
}

void ApprovalTray::onActionInvoked(uint id, const QString& action)
{
    Q_UNUSED(action)
    for (auto it = notificationOf_.cbegin(); it != notificationOf_.cend(); ++it) {
        if (it.value() == id) {
            emit showPromptRequested();
            return;
        }
    }
}

void ApprovalTray::closeNotification(const QString& key)
{
    if (!notificationOf_.contains(key)) {
        return;
    }
    bus_.asyncCall(QDBusMessage::createMethodCall(kNotifications, kNotificationsPath, kNotifications,
                                                  QStringLiteral("CloseNotification"))
                   << notificationOf_.take(key));
}

}  // namespace moat::gui

// SPDX-License-Identifier: Apache-2.0
#include "event_icons.h"

#include <QCoreApplication>
#include <QIconEngine>
#include <QPainter>
#include <QPainterPath>
#include <QPixmap>

#include <array>

namespace moat::gui {

namespace {

class KindIconEngine : public QIconEngine
{
public:
    explicit KindIconEngine(EventKind kind) : kind_(kind) {}

    QIconEngine* clone() const override { return new KindIconEngine(kind_); }

    QPixmap pixmap(const QSize& size, QIcon::Mode mode, QIcon::State state) override
    {
        return scaledPixmap(size, mode, state, 1.0);
    }

    QPixmap scaledPixmap(const QSize& size, QIcon::Mode mode, QIcon::State state, qreal scale) override
    {
        QPixmap pixmap(size * scale);
        pixmap.setDevicePixelRatio(scale);
        pixmap.fill(Qt::transparent);
        QPainter painter(&pixmap);
        paint(&painter, QRect(QPoint(0, 0), size), mode, state);
        return pixmap;
    }

    void paint(QPainter* painter, const QRect& rect, QIcon::Mode mode, QIcon::State) override
    {
        painter->save();
        painter->setRenderHint(QPainter::Antialiasing);
        const qreal side = std::min(rect.width(), rect.height());
        painter->translate(rect.center() - QPointF(side / 2, side / 2) + QPointF(0.5, 0.5));
        painter->scale(side / 16.0, side / 16.0);  // drawn on a 16x16 grid
        QColor color = colorOf(kind_);
        if (mode == QIcon::Disabled) {
            color.setAlpha(110);
        }
        painter->setPen(QPen(color, 1.6, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
        painter->setBrush(Qt::NoBrush);
        drawShape(painter, color);
        painter->restore();
    }

private:
    static QColor colorOf(EventKind kind)
    {
        // Mid-tone colours: enough contrast on white and on a dark base.
        static const std::array<QColor, kEventKindCount> colors{
            QColor(0x3b, 0x82, 0xc4),  // exec
            QColor(0x2e, 0x9b, 0x4f),  // network allowed
            QColor(0xd9, 0x3a, 0x3a),  // network denied
            QColor(0x8a, 0x6f, 0xd1),  // dns
            QColor(0xc9, 0x8a, 0x12),  // secret
            QColor(0xd0, 0x6a, 0x1f),  // approval
            QColor(0x1f, 0x9e, 0x9e),  // checkpoint
            QColor(0xb0, 0x4f, 0x9e),  // expiry
            QColor(0x7a, 0x86, 0x94),  // session
            QColor(0x7a, 0x86, 0x94),  // other
        };
        return colors[static_cast<size_t>(kind)];
    }

    void drawShape(QPainter* p, const QColor& color) const
    {
        switch (kind_) {
        case EventKind::Exec:  // a prompt: >_
            p->drawPolyline(QPolygonF({QPointF(2.5, 4), QPointF(6.5, 8), QPointF(2.5, 12)}));
            p->drawLine(QPointF(8, 12), QPointF(13.5, 12));
            break;
        case EventKind::NetAllowed:  // a circle with a tick
            p->drawEllipse(QRectF(1.5, 1.5, 13, 13));
            p->drawPolyline(QPolygonF({QPointF(4.5, 8.2), QPointF(7, 10.8), QPointF(11.5, 5.2)}));
            break;
        case EventKind::NetDenied:  // a filled circle with a bar
            p->setBrush(color);
            p->drawEllipse(QRectF(1.5, 1.5, 13, 13));
            p->setPen(QPen(Qt::white, 1.8, Qt::SolidLine, Qt::RoundCap));
            p->drawLine(QPointF(4.5, 8), QPointF(11.5, 8));
            break;
        case EventKind::Dns: {  // a globe
            p->drawEllipse(QRectF(1.5, 1.5, 13, 13));
            p->drawEllipse(QRectF(5, 1.5, 6, 13));
            p->drawLine(QPointF(1.5, 8), QPointF(14.5, 8));
            break;
        }
        case EventKind::Secret:  // a key
            p->drawEllipse(QRectF(1.5, 4.5, 7, 7));
            p->drawLine(QPointF(8.5, 8), QPointF(14.5, 8));
            p->drawLine(QPointF(12.5, 8), QPointF(12.5, 11));
            break;
        case EventKind::Approval: {  // a question mark in a square
            p->drawRoundedRect(QRectF(1.5, 1.5, 13, 13), 2.5, 2.5);
            QPainterPath hook;
            hook.moveTo(5.5, 6);
            hook.cubicTo(5.5, 3, 10.5, 3, 10.5, 6);
            hook.cubicTo(10.5, 8, 8, 8, 8, 10);
            p->drawPath(hook);
            p->drawPoint(QPointF(8, 12.3));
            break;
        }
        case EventKind::Checkpoint:  // a flag
            p->drawLine(QPointF(3.5, 14.5), QPointF(3.5, 1.5));
            p->setBrush(color);
            p->drawPolygon(QPolygonF({QPointF(3.5, 2), QPointF(13, 4.7), QPointF(3.5, 7.5)}));
            break;
        case EventKind::Expiry:  // a clock
            p->drawEllipse(QRectF(1.5, 1.5, 13, 13));
            p->drawPolyline(QPolygonF({QPointF(8, 4), QPointF(8, 8), QPointF(11, 10)}));
            break;
        case EventKind::Session:  // a box
            p->drawRect(QRectF(2.5, 4.5, 11, 9));
            p->drawLine(QPointF(2.5, 7.5), QPointF(13.5, 7.5));
            break;
        case EventKind::Other:  // a dot
            p->setBrush(color);
            p->drawEllipse(QRectF(5, 5, 6, 6));
            break;
        }
    }

    EventKind kind_;
};

}  // namespace

QIcon eventIcon(EventKind kind)
{
    static std::array<QIcon, kEventKindCount> icons;
    QIcon& icon = icons[static_cast<size_t>(kind)];
    if (icon.isNull()) {
        icon = QIcon(new KindIconEngine(kind));
    }
    return icon;
}

QString eventKindName(EventKind kind)
{
    switch (kind) {
    case EventKind::Exec:
        return QCoreApplication::translate("moat::gui::EventKind", "Command run");
    case EventKind::NetAllowed:
        return QCoreApplication::translate("moat::gui::EventKind", "Network allowed");
    case EventKind::NetDenied:
        return QCoreApplication::translate("moat::gui::EventKind", "Network denied");
    case EventKind::Dns:
        return QCoreApplication::translate("moat::gui::EventKind", "DNS");
    case EventKind::Secret:
        return QCoreApplication::translate("moat::gui::EventKind", "Secret use");
    case EventKind::Approval:
        return QCoreApplication::translate("moat::gui::EventKind", "Approval");
    case EventKind::Checkpoint:
        return QCoreApplication::translate("moat::gui::EventKind", "Checkpoint");
    case EventKind::Expiry:
        return QCoreApplication::translate("moat::gui::EventKind", "Expiry");
    case EventKind::Session:
        return QCoreApplication::translate("moat::gui::EventKind", "Session");
    case EventKind::Other:
        return QCoreApplication::translate("moat::gui::EventKind", "Other");
    }
    return {};
}

}  // namespace moat::gui

// SPDX-License-Identifier: Apache-2.0
#include "app_icon.h"

#include <QIconEngine>
#include <QPainter>
#include <QPainterPath>
#include <QPixmap>

namespace moat::gui {

namespace {

class AppIconEngine : public QIconEngine
{
public:
    QIconEngine* clone() const override { return new AppIconEngine; }

    void paint(QPainter* painter, const QRect& rect, QIcon::Mode mode, QIcon::State) override
    {
        painter->save();
        painter->setRenderHint(QPainter::Antialiasing);
        const qreal side = qMin(rect.width(), rect.height());
        painter->translate(rect.x() + (rect.width() - side) / 2.0, rect.y() + (rect.height() - side) / 2.0);
        painter->scale(side / 64.0, side / 64.0);
        const bool disabled = mode == QIcon::Disabled;
        const QColor water = disabled ? QColor(140, 140, 140) : QColor(38, 120, 200);
        const QColor stone = disabled ? QColor(180, 180, 180) : QColor(214, 200, 170);
        const QColor outline(40, 40, 40);

        // The ring of water.
        painter->setPen(QPen(outline, 2));
        painter->setBrush(water);
        painter->drawEllipse(QRectF(3, 3, 58, 58));
        painter->setBrush(QColor(250, 250, 250, 230));
        painter->drawEllipse(QRectF(14, 14, 36, 36));

        // The tower, with its battlements.
        QPainterPath tower;
        tower.moveTo(22, 48);
        tower.lineTo(22, 22);
        for (int merlon = 0; merlon < 3; ++merlon) {
            const qreal x = 22 + merlon * 8;
            tower.lineTo(x, 17);
            tower.lineTo(x + 4, 17);
            tower.lineTo(x + 4, 22);
            tower.lineTo(x + 8, 22);
        }
        tower.lineTo(42, 48);
        tower.closeSubpath();
        painter->setBrush(stone);
        painter->drawPath(tower);
        // The door.
        painter->setBrush(outline);
        painter->drawRoundedRect(QRectF(29, 36, 6, 12), 3, 3);
        painter->restore();
    }

    QPixmap pixmap(const QSize& size, QIcon::Mode mode, QIcon::State state) override
    {
        QPixmap image(size);
        image.fill(Qt::transparent);
        QPainter painter(&image);
        paint(&painter, QRect(QPoint(0, 0), size), mode, state);
        return image;
    }
};

}  // namespace

QIcon appIcon()
{
    return QIcon(new AppIconEngine);
}

}  // namespace moat::gui

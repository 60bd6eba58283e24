#include "window_grab.hpp"

#include <QOpenGLWidget>
#include <QPainter>
#include <QPixmap>

namespace clusterlens::views {

QImage grabWindowWithViews(QWidget& window) {
    QPixmap shot = window.grab();
    {
        QPainter painter(&shot);
        for (QOpenGLWidget* view : window.findChildren<QOpenGLWidget*>())
            if (view->isVisible()) painter.drawImage(view->mapTo(&window, QPoint(0, 0)), view->grabFramebuffer());
    }
    return shot.toImage();
}

}  // namespace clusterlens::views

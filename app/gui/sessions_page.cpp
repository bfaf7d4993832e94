// SPDX-License-Identifier: Apache-2.0
#include "sessions_page.h"

#include "moatd_connection.h"
#include "session_list_model.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace moat::gui {

namespace {

// Keeps running sessions, and past ones when asked.
class RunningFilter : public QSortFilterProxyModel
{
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;
    void setShowPast(bool show)
    {
        showPast_ = show;
        invalidateFilter();
    }

protected:
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override
    {
        return showPast_ ||
               sourceModel()->index(row, 0, parent).data(SessionListModel::RunningRole).toBool();
    }

private:
    bool showPast_ = true;
};

}  // namespace

SessionsPage::SessionsPage(MoatdConnection* moatd, SessionListModel* sessions, QWidget* parent)
    : QWidget(parent), moatd_(moatd), sessions_(sessions)
{
    auto* running = new RunningFilter(this);
    running->setSourceModel(sessions_);
    running_ = running;
    search_ = new QSortFilterProxyModel(this);
    search_->setSourceModel(running_);
    search_->setFilterRole(SessionListModel::SearchTextRole);
    search_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    search_->setFilterKeyColumn(0);

    filter_ = new QLineEdit(this);
    filter_->setObjectName(QStringLiteral("sessionFilter"));
    filter_->setPlaceholderText(tr("Search name, state, image, flags…"));
    filter_->setAccessibleName(tr("Search sessions"));
    filter_->setClearButtonEnabled(true);
    showPast_ = new QCheckBox(tr("Show p&ast sessions"), this);
    showPast_->setObjectName(QStringLiteral("showPast"));
    showPast_->setChecked(true);

    table_ = new QTableView(this);
    table_->setObjectName(QStringLiteral("sessionTable"));
    table_->setAccessibleName(tr("Sessions"));
    table_->setModel(search_);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setSortingEnabled(false);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setColumnHidden(SessionListModel::Id, true);
    table_->setColumnWidth(SessionListModel::Name, 180);
    table_->setColumnWidth(SessionListModel::Flags, 220);

    auto* create = new QPushButton(tr("&New sandbox…"), this);
    create->setObjectName(QStringLiteral("newSandbox"));
    open_ = new QPushButton(tr("&Open"), this);
    open_->setObjectName(QStringLiteral("openSession"));
    stop_ = new QPushButton(tr("S&top"), this);
    stop_->setObjectName(QStringLiteral("stopSession"));
    renew_ = new QPushButton(tr("Rene&w…"), this);
    renew_->setObjectName(QStringLiteral("renewSession"));

    auto* top = new QHBoxLayout;
    top->addWidget(filter_, 1);
    top->addWidget(showPast_);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(create);
    buttons->addStretch(1);
    buttons->addWidget(open_);
    buttons->addWidget(renew_);
    buttons->addWidget(stop_);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(table_, 1);
    layout->addLayout(buttons);

    connect(filter_, &QLineEdit::textChanged, search_, &QSortFilterProxyModel::setFilterFixedString);
    connect(showPast_, &QCheckBox::toggled, this, [running](bool show) { running->setShowPast(show); });
    connect(create, &QPushButton::clicked, this, &SessionsPage::newSandboxRequested);
    connect(open_, &QPushButton::clicked, this, [this]() {
        if (!selectedId().isEmpty()) {
            emit openRequested(selectedId());
        }
    });
    connect(table_, &QTableView::activated, this, [this]() {
        if (!selectedId().isEmpty()) {
            emit openRequested(selectedId());
        }
    });
    connect(stop_, &QPushButton::clicked, this, &SessionsPage::stopSelected);
    connect(renew_, &QPushButton::clicked, this, &SessionsPage::renewSelected);
    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &SessionsPage::updateButtons);
    // A refresh resets the model: keep the same session selected.
    connect(sessions_, &QAbstractItemModel::modelAboutToBeReset, this, [this]() {
        table_->setProperty("keep", selectedId());
    });
    connect(sessions_, &QAbstractItemModel::modelReset, this, [this]() {
        selectSession(table_->property("keep").toString());
        updateButtons();
    });
    connect(sessions_, &SessionListModel::refreshFailed, this, &SessionsPage::notice);
    updateButtons();
}

QString SessionsPage::selectedId() const
{
    const QModelIndexList rows = table_->selectionModel()->selectedRows();
    return rows.isEmpty() ? QString() : rows.first().data(SessionListModel::SessionIdRole).toString();
}

bool SessionsPage::selectSession(const QString& id)
{
    for (int row = 0; row < search_->rowCount(); ++row) {
        const QModelIndex index = search_->index(row, 0);
        if (!id.isEmpty() && index.data(SessionListModel::SessionIdRole).toString() == id) {
            table_->selectRow(row);
            return true;
        }
    }
    return false;
}

void SessionsPage::updateButtons()
{
    const QModelIndexList rows = table_->selectionModel()->selectedRows();
    const bool any = !rows.isEmpty();
    const bool running = any && rows.first().data(SessionListModel::RunningRole).toBool();
    open_->setEnabled(any);
    stop_->setEnabled(running);
    renew_->setEnabled(running);
}

void SessionsPage::stopSelected()
{
    const QString id = selectedId();
    const SessionRow* row = sessions_->rowFor(id);
    if (row == nullptr) {
        return;
    }
    const auto answer = QMessageBox::question(
        this, tr("Stop session"),
        tr("Stop %1 now? Its command gets SIGTERM, then SIGKILL after a grace period.").arg(row->name));
    if (answer != QMessageBox::Yes) {
        return;
    }
    moatd_->stopSession(id, [this, name = row->name](const MoatdAnswer& reply) {
        emit notice(reply.ok ? tr("Stopping %1.").arg(name)
                             : tr("moatd did not stop %1: %2").arg(name, reply.errorMessage));
    });
}

void SessionsPage::renewSelected()
{
    const QString id = selectedId();
    const SessionRow* row = sessions_->rowFor(id);
    if (row == nullptr) {
        return;
    }
    bool ok = false;
    const QString ttl = QInputDialog::getText(
        this, tr("Renew session"),
        tr("Push the expiry of %1 out to this long from now (30m, 8h; empty: its own time to live):").arg(row->name),
        QLineEdit::Normal, QString(), &ok);
    if (ok) {
        renew(id, ttl.trimmed());
    }
}

void SessionsPage::renew(const QString& id, const QString& ttl)
{
    moatd_->renewSession(id, ttl, [this](const MoatdAnswer& reply) {
        if (!reply.ok) {
            emit notice(tr("moatd did not renew the session: %1").arg(reply.errorMessage));
            return;
        }
        emit notice(tr("The session now expires at %1.").arg(reply.value));
        sessions_->refresh();
    });
}

}  // namespace moat::gui

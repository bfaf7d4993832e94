// SPDX-License-Identifier: Apache-2.0
#include "secrets_page.h"

#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include "list_field.h"
#include "moatd_connection.h"
#include "page_message.h"

namespace moat::gui {

namespace {

enum Column { Name, Hosts, Headers, ColumnCount };

QStringList strings(const QJsonValue& value)
{
    QStringList list;
    for (const QJsonValue& item : value.toArray()) {
        list.append(item.toString());
    }
    return list;
}

QLineEdit* field(QWidget* parent, const QString& accessibleName, const QString& placeholder)
{
    auto* edit = new QLineEdit(parent);
    edit->setAccessibleName(accessibleName);
    edit->setPlaceholderText(placeholder);
    return edit;
}

}  // namespace

SecretsPage::SecretsPage(MoatdConnection* moatd, QWidget* parent) : QWidget(parent), moatd_(moatd)
{
    setAccessibleName(tr("Secrets"));
    auto* layout = new QVBoxLayout(this);

    auto* intro = new QLabel(tr("Secrets a sandbox may use by placeholder. The value stays in your keychain: it "
                                "is sent only to the hosts named here, in the headers named here, and is never "
                                "shown again once saved."),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    table_ = new QTableWidget(0, ColumnCount, this);
    table_->setAccessibleName(tr("Saved secrets"));
    table_->setHorizontalHeaderLabels({tr("Name"), tr("Hosts"), tr("Headers")});
    table_->verticalHeader()->hide();
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setTabKeyNavigation(false);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->horizontalHeader()->setSectionResizeMode(Hosts, QHeaderView::Stretch);
    layout->addWidget(table_, 1);

    auto* listButtons = new QHBoxLayout;
    edit_ = new QPushButton(tr("&Change hosts or headers…"), this);
    edit_->setAccessibleName(tr("Change the selected secret's hosts or headers"));
    remove_ = new QPushButton(tr("Re&move…"), this);
    remove_->setAccessibleName(tr("Remove the selected secret"));
    auto* reload = new QPushButton(tr("Re&load"), this);
    reload->setAccessibleName(tr("Reload the list of secrets"));
    listButtons->addWidget(edit_);
    listButtons->addWidget(remove_);
    listButtons->addStretch(1);
    listButtons->addWidget(reload);
    layout->addLayout(listButtons);

    auto* form = new QGroupBox(tr("Add or replace a secret"), this);
    auto* formLayout = new QFormLayout(form);
    name_ = field(form, tr("Secret name"), tr("e.g. GITHUB_TOKEN"));
    value_ = field(form, tr("Secret value"), tr("the value; not shown, not kept here"));
    value_->setEchoMode(QLineEdit::Password);
    // No drag out, no copy: the field is a way in only.
    value_->setDragEnabled(false);
    value_->setContextMenuPolicy(Qt::NoContextMenu);
    hosts_ = field(form, tr("Hosts the value may be sent to"), tr("e.g. api.github.com, *.acme.example"));
    headers_ = field(form, tr("Headers the value may fill"), tr("empty: Authorization only"));
    formLayout->addRow(tr("&Name:"), name_);
    formLayout->addRow(tr("&Value:"), value_);
    formLayout->addRow(tr("&Hosts:"), hosts_);
    formLayout->addRow(tr("He&aders:"), headers_);
    rebindNote_ = new QLabel(tr("To change where a secret may go, enter its value again. moat never hands a saved "
                                "value out, and does not move one to new hosts without it: otherwise any program "
                                "of yours could redirect your real secret."),
                             form);
    rebindNote_->setWordWrap(true);
    formLayout->addRow(rebindNote_);
    save_ = new QPushButton(tr("Save secre&t"), form);
    save_->setAccessibleName(tr("Save the secret to the keychain"));
    save_->setDefault(true);
    formLayout->addRow(save_);
    layout->addWidget(form);

    message_ = makePageMessage(this);
    layout->addWidget(message_);

    setTabOrder(table_, edit_);
    setTabOrder(edit_, remove_);
    setTabOrder(remove_, reload);
    setTabOrder(reload, name_);
    setTabOrder(name_, value_);
    setTabOrder(value_, hosts_);
    setTabOrder(hosts_, headers_);
    setTabOrder(headers_, save_);

    connect(save_, &QPushButton::clicked, this, &SecretsPage::save);
    connect(value_, &QLineEdit::returnPressed, this, &SecretsPage::save);
    connect(edit_, &QPushButton::clicked, this, &SecretsPage::editSelected);
    connect(remove_, &QPushButton::clicked, this, &SecretsPage::removeSelected);
    connect(reload, &QPushButton::clicked, this, &SecretsPage::refresh);
    connect(table_, &QTableWidget::itemSelectionChanged, this, [this] {
        edit_->setEnabled(!selectedName().isEmpty());
        remove_->setEnabled(!selectedName().isEmpty());
    });
    // Read again when moatd comes back after going away (a first link is
    // the page's own first call, already answered).
    connect(moatd_, &MoatdConnection::linkChanged, this, [this](bool linked) {
        if (!linked) {
            lostLink_ = true;
        } else if (lostLink_ && isVisible()) {
            lostLink_ = false;
            refresh();
        }
    });
    edit_->setEnabled(false);
    remove_->setEnabled(false);
}

QString SecretsPage::message() const
{
    return message_->text();
}

void SecretsPage::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    refresh();
}

void SecretsPage::refresh()
{
    moatd_->listSecrets([page = QPointer(this)](const MoatdAnswer& answer) {
        if (page) {
            page->showList(answer);
        }
    });
}

void SecretsPage::showList(const MoatdAnswer& answer)
{
    if (!answer.ok) {
        say(tr("Could not list the secrets: %1").arg(answer.errorMessage), true);
        emit answered(false);
        return;
    }
    const QString selected = selectedName();
    const QJsonArray secrets = QJsonDocument::fromJson(answer.value.toUtf8()).array();
    table_->setRowCount(0);
    table_->setRowCount(static_cast<int>(secrets.size()));
    int row = 0;
    for (const QJsonValue& value : secrets) {
        const QJsonObject secret = value.toObject();
        const QString name = secret.value(QStringLiteral("name")).toString();
        const QStringList headers = strings(secret.value(QStringLiteral("headers")));
        table_->setItem(row, Name, new QTableWidgetItem(name));
        table_->setItem(row, Hosts, new QTableWidgetItem(joinListField(strings(secret.value(QStringLiteral("hosts"))))));
        // The cell shows what an empty list means; its data keeps the list
        // itself, which is what editing starts from.
        auto* headersItem = new QTableWidgetItem(headers.isEmpty() ? tr("Authorization (the default)")
                                                                   : joinListField(headers));
        headersItem->setData(Qt::UserRole, joinListField(headers));
        table_->setItem(row, Headers, headersItem);
        if (name == selected) {
            table_->selectRow(row);
        }
        ++row;
    }
    emit answered(true);
}

QString SecretsPage::selectedName() const
{
    const auto rows = table_->selectionModel()->selectedRows(Name);
    return rows.isEmpty() ? QString() : rows.front().data().toString();
}

void SecretsPage::save()
{
    const QString name = name_->text().trimmed();
    // Taken out of the field first: whatever moatd answers, the value is
    // not left on screen, in the undo history or in this page.
    QString value = value_->text();
    value_->setText(QString());
    if (value.isEmpty()) {
        say(tr("Enter the secret's value: moat keeps no copy to reuse, so saving (or changing where it may go) "
               "needs it."),
            true);
        value_->setFocus();
        emit answered(false);
        return;
    }
    const QStringList hosts = splitListField(hosts_->text());
    const QStringList headers = splitListField(headers_->text());
    save_->setEnabled(false);
    moatd_->setSecret(name, value, hosts, headers, [page = QPointer(this), name](const MoatdAnswer& answer) {
        if (!page) {
            return;
        }
        page->save_->setEnabled(true);
        if (!answer.ok) {
            page->say(answer.errorMessage, true);
            emit page->answered(false);
            return;
        }
        page->name_->clear();
        page->hosts_->clear();
        page->headers_->clear();
        page->say(tr("Saved %1 to the keychain.").arg(name), false);
        page->refresh();
    });
    value.fill(QChar(0));  // this copy, at least, does not outlive the call
}

void SecretsPage::editSelected()
{
    const auto rows = table_->selectionModel()->selectedRows();
    if (rows.isEmpty()) {
        return;
    }
    const int row = rows.front().row();
    name_->setText(table_->item(row, Name)->text());
    hosts_->setText(table_->item(row, Hosts)->text());
    headers_->setText(table_->item(row, Headers)->data(Qt::UserRole).toString());
    say(tr("Change the hosts or headers of %1, then enter its value again and save.").arg(name_->text()), false);
    value_->setFocus();
}

void SecretsPage::removeSelected()
{
    const QString name = selectedName();
    if (name.isEmpty()) {
        return;
    }
    const auto choice = QMessageBox::question(
        this, tr("Remove secret"),
        tr("Remove %1? Its value is deleted from your keychain; sessions started later cannot use it.").arg(name),
        QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
    if (choice != QMessageBox::Yes) {
        return;
    }
    moatd_->removeSecret(name, [page = QPointer(this), name](const MoatdAnswer& answer) {
        if (!page) {
            return;
        }
        if (!answer.ok) {
            page->say(answer.errorMessage, true);
            emit page->answered(false);
            return;
        }
        page->say(tr("Removed %1.").arg(name), false);
        page->refresh();
    });
}

void SecretsPage::say(const QString& text, bool error)
{
    setPageMessage(message_, text, error);
}

}  // namespace moat::gui

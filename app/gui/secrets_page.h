// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QWidget>

class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;

namespace moat::gui {

class MoatdConnection;
struct MoatdAnswer;

// The Secrets page: the names moatd's keychain holds with the hosts and
// headers each may fill (ListSecrets; a value never comes back), a form
// to add or replace one (SetSecret), and removal after a confirmation
// (RemoveSecret).
//
// Changing where a secret may go needs its value again: there is no
// "bindings only" call on purpose. Rebinding is the one change that sends a
// saved secret somewhere new, and any program running as the user may call
// moatd; requiring the value means such a program can only replace the
// secret with one it already knows, never redirect the user's real one.
//
// The value field is a password field, emptied (undo history too) the
// moment the value is handed to moatd, whatever moatd answers.
class SecretsPage : public QWidget
{
    Q_OBJECT
public:
    explicit SecretsPage(MoatdConnection* moatd, QWidget* parent = nullptr);

    // Asks moatd for the list again (also on showing the page and when
    // moatd comes back).
    void refresh();

    // For tests: the list (columns: name, hosts, headers), the form, and
    // the last message shown (moatd's error, or what was done).
    QTableWidget* table() const { return table_; }
    QLineEdit* nameField() const { return name_; }
    QLineEdit* valueField() const { return value_; }
    QLineEdit* hostsField() const { return hosts_; }
    QLineEdit* headersField() const { return headers_; }
    QPushButton* saveButton() const { return save_; }
    QPushButton* editButton() const { return edit_; }
    QPushButton* removeButton() const { return remove_; }
    QString message() const;

signals:
    // A call to moatd has been answered and the page shows the result.
    void answered(bool ok);

protected:
    void showEvent(QShowEvent* event) override;

private:
    void save();
    void editSelected();
    void removeSelected();
    void showList(const MoatdAnswer& answer);
    void say(const QString& text, bool error);
    QString selectedName() const;

    MoatdConnection* moatd_;
    QTableWidget* table_ = nullptr;
    QLineEdit* name_ = nullptr;
    QLineEdit* value_ = nullptr;
    QLineEdit* hosts_ = nullptr;
    QLineEdit* headers_ = nullptr;
    QPushButton* save_ = nullptr;
    QPushButton* edit_ = nullptr;
    QPushButton* remove_ = nullptr;
    QLabel* rebindNote_ = nullptr;
    QLabel* message_ = nullptr;
    bool lostLink_ = false;
};

}  // namespace moat::gui

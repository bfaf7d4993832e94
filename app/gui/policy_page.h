// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QWidget>
#include <vector>

class QComboBox;
class QGridLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QToolButton;

namespace moat::gui {

class MoatdConnection;
struct MoatdAnswer;

// The Policy page: what an agent may grant itself (docs/escalation.md), as
// moatd keeps it in the user's policy.toml (GetPolicy / SetPolicy). Per flag
// of a request, auto / ask / deny; the host patterns approved or refused on
// their own; how long a question waits. Beside each: where its value comes
// from (moat's default or your policy) and a button back to the default, as
// Flatseal shows permissions. Nothing is written until Save, and moatd checks
// the whole change with the parser that judges requests before it replaces
// the file: a refused change leaves the policy as it was.
class PolicyPage : public QWidget
{
    Q_OBJECT
public:
    // The settings, by their policy.toml names.
    static inline const QStringList kGrantSettings = {QStringLiteral("allow_host"), QStringLiteral("sudo"),
                                                      QStringLiteral("docker"), QStringLiteral("net_open")};
    static inline const QStringList kTextSettings = {QStringLiteral("auto_hosts"), QStringLiteral("deny_hosts"),
                                                     QStringLiteral("timeout")};

    explicit PolicyPage(MoatdConnection* moatd, QWidget* parent = nullptr);

    // Reads the policy from moatd again, dropping unsaved changes (also
    // when the page is shown with none).
    void reload();
    // Sends the settings marked as yours to moatd (what Save does).
    void save();

    // For tests: the controls by setting name, and what the page says.
    QComboBox* grantBox(const QString& setting) const;
    QLineEdit* textField(const QString& setting) const;
    QToolButton* resetButton(const QString& setting) const;
    QString originText(const QString& setting) const;
    QPushButton* saveButton() const { return save_; }
    QString message() const;
    QString brokenText() const;

signals:
    // moatd answered a GetPolicy (after reload) or a SetPolicy (after save).
    void answered(bool ok);

protected:
    void showEvent(QShowEvent* event) override;

private:
    struct Setting {
        QString name;
        QComboBox* grant = nullptr;  // one of these two
        QLineEdit* text = nullptr;
        QLabel* origin = nullptr;
        QToolButton* reset = nullptr;
        QJsonValue fallback;  // moat's default
        bool yours = false;   // set by you: written on Save
        bool saved = true;    // as moatd last said
    };
    Setting* find(const QString& name);
    const Setting* find(const QString& name) const;
    void addRow(const QString& name, const QString& label, const QString& help);
    void showPolicy(const MoatdAnswer& answer);
    QJsonValue valueOf(const Setting& setting) const;
    void setValue(Setting& setting, const QJsonValue& value);
    void markEdited(Setting& setting, bool yours);
    void showOrigin(Setting& setting);
    void say(const QString& text, bool error);

    MoatdConnection* moatd_;
    std::vector<Setting> settings_;
    QGridLayout* grid_ = nullptr;
    QLabel* broken_ = nullptr;
    QLabel* path_ = nullptr;
    QPushButton* save_ = nullptr;
    QPushButton* revert_ = nullptr;
    QLabel* message_ = nullptr;
    bool lostLink_ = false;
};

}  // namespace moat::gui

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

namespace moat::helper {

// The errors of org.moat.Manager1 (helper/org.moat.Manager1.xml). Each goes
// with a message that says what went wrong and what to do.
inline const QString kErrorAccessDenied = QStringLiteral("org.moat.Error.AccessDenied");
inline const QString kErrorInvalidArgument = QStringLiteral("org.moat.Error.InvalidArgument");
inline const QString kErrorNoSuchSession = QStringLiteral("org.moat.Error.NoSuchSession");
inline const QString kErrorNoSuchRequest = QStringLiteral("org.moat.Error.NoSuchRequest");
inline const QString kErrorNotRunning = QStringLiteral("org.moat.Error.NotRunning");
inline const QString kErrorSetupFailed = QStringLiteral("org.moat.Error.SetupFailed");
inline const QString kErrorKeychain = QStringLiteral("org.moat.Error.Keychain");

}  // namespace moat::helper

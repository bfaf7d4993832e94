// SPDX-License-Identifier: Apache-2.0
#pragma once

// `moat-manager --attach SOCKET`: the client end of "Open in terminal". It
// runs in the user's terminal emulator, without Qt and without a display:
// connects to a TerminalRelay's socket, puts its terminal in raw mode (every
// key goes to the session, Ctrl+C included), relays what is typed to the
// session and the session's output to the terminal, and sends the window
// size at the start and on every SIGWINCH. The terminal's mode is restored
// on every way out, SIGINT, SIGTERM and SIGHUP included.
//
// Returns the exit status: the session's when it ended (after a one-line
// note on stderr), 0 when another terminal took the session over, 125 when
// the socket is missing or refused the connection or the app went away
// (with a message saying what happened), 128+N after signal N.
namespace moat::gui {

int runAttachClient(const char* socketPath);

}  // namespace moat::gui

<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>AgentPreset</name>
    <message>
        <source>A shell</source>
        <translation>Eine Shell</translation>
    </message>
    <message>
        <source>Claude Code</source>
        <translation>Claude Code</translation>
    </message>
    <message>
        <source>Codex</source>
        <translation>Codex</translation>
    </message>
</context>
<context>
    <name>ApprovalText</name>
    <message>
        <source>(git push to %1)</source>
        <translation>(git push nach %1)</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>%1 asks to send %2</source>
        <translation>%1 möchte senden: %2</translation>
    </message>
    <message>
        <source>%1 asks for %2</source>
        <translation>%1 fordert an: %2</translation>
    </message>
</context>
<context>
    <name>PageMessage</name>
    <message>
        <source>Result of the last action</source>
        <translation>Ergebnis der letzten Aktion</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Fehler</translation>
    </message>
</context>
<context>
    <name>ProfileScope</name>
    <message>
        <source>An ask rule holds this request; moat-manager does not write HTTP rules into a profile (the first matching rule wins, so an allow rule after your ask rule would never apply). Edit the rules yourself to allow it for good.</source>
        <translation>Eine ask-Regel hält diese Anfrage an; moat-manager schreibt keine HTTP-Regeln in ein Profil (die erste passende Regel gilt, daher würde eine allow-Regel nach Ihrer ask-Regel nie greifen). Bearbeiten Sie die Regeln selbst, um sie dauerhaft zu erlauben.</translation>
    </message>
    <message>
        <source>Only --allow-host can be approved always: a profile cannot grant --sudo or --docker, and moat-manager does not make --net open permanent. Approve it once, or not at all.</source>
        <translation>Nur --allow-host kann dauerhaft genehmigt werden: Ein Profil kann --sudo oder --docker nicht gewähren, und moat-manager macht --net open nicht dauerhaft. Genehmigen Sie es einmal oder gar nicht.</translation>
    </message>
    <message>
        <source>moatd did not say which profile this session runs with.</source>
        <translation>moatd hat nicht mitgeteilt, mit welchem Profil diese Sitzung läuft.</translation>
    </message>
    <message>
        <source>This session runs without a profile (moat records it as &quot;default&quot;): no profile file is read by its next runs. Start it with --profile NAME to use this.</source>
        <translation>Diese Sitzung läuft ohne Profil (moat zeichnet sie als „default“ auf): Ihre nächsten Läufe lesen keine Profildatei. Starten Sie sie mit --profile NAME, um dies zu nutzen.</translation>
    </message>
    <message>
        <source>The session&apos;s profile &quot;%1&quot; is not a name moat-manager writes to.</source>
        <translation>Das Profil „%1“ der Sitzung ist kein Name, in den moat-manager schreibt.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is a profile moat ships and you have no copy of it in %2; a file of that name there would replace the shipped one entirely. Copy it there first to add hosts to it.</source>
        <translation>„%1“ ist ein mit moat ausgeliefertes Profil, von dem Sie in %2 keine Kopie haben; eine Datei dieses Namens dort würde das ausgelieferte Profil vollständig ersetzen. Kopieren Sie es zuerst dorthin, um ihm Hosts hinzuzufügen.</translation>
    </message>
    <message>
        <source>The session&apos;s profile file %1 no longer exists.</source>
        <translation>Die Profildatei %1 der Sitzung existiert nicht mehr.</translation>
    </message>
</context>
<context>
    <name>TerminalEmulator</name>
    <message>
        <source>$TERMINAL is &quot;%1&quot;, which is not a program found on PATH. Set TERMINAL to your terminal emulator (for example xterm or gnome-terminal).</source>
        <translation>$TERMINAL ist „%1“, aber dieses Programm wurde im PATH nicht gefunden. Setzen Sie TERMINAL auf Ihren Terminalemulator (zum Beispiel xterm oder gnome-terminal).</translation>
    </message>
    <message>
        <source>No terminal emulator was found on PATH. Install one (for example xterm, gnome-terminal or konsole), or set TERMINAL to the one you use, and try again.</source>
        <translation>Im PATH wurde kein Terminalemulator gefunden. Installieren Sie einen (zum Beispiel xterm, gnome-terminal oder konsole) oder setzen Sie TERMINAL auf den, den Sie verwenden, und versuchen Sie es erneut.</translation>
    </message>
    <message>
        <source>Cannot start %1.</source>
        <translation>%1 kann nicht gestartet werden.</translation>
    </message>
</context>
<context>
    <name>moat::gui::AllowRuleDialog</name>
    <message>
        <source>Allow this next time</source>
        <translation>Beim nächsten Mal erlauben</translation>
    </message>
    <message>
        <source>Sessions started with the profile below will be allowed to reach &lt;b&gt;%1&lt;/b&gt; (&lt;code&gt;%2&lt;/code&gt;). Nothing is written until you choose &quot;Write to profile&quot;.</source>
        <translation>Sitzungen, die mit dem unten gewählten Profil gestartet werden, dürfen &lt;b&gt;%1&lt;/b&gt; erreichen (&lt;code&gt;%2&lt;/code&gt;). Es wird nichts geschrieben, bevor Sie „In Profil schreiben“ wählen.</translation>
    </message>
    <message>
        <source>Profile to add the rule to</source>
        <translation>Profil, dem die Regel hinzugefügt wird</translation>
    </message>
    <message>
        <source>The profile file as it will be written</source>
        <translation>Die Profildatei, wie sie geschrieben wird</translation>
    </message>
    <message>
        <source>&amp;Write to profile</source>
        <translation>In Profil &amp;schreiben</translation>
    </message>
    <message>
        <source>&amp;Profile:</source>
        <translation>&amp;Profil:</translation>
    </message>
    <message>
        <source>%1 already allows %2.</source>
        <translation>%1 erlaubt %2 bereits.</translation>
    </message>
    <message>
        <source>%1 will be created with this text (added: %2):</source>
        <translation>%1 wird mit diesem Text angelegt (hinzugefügt: %2):</translation>
    </message>
    <message>
        <source>%1 will read as below (added: %2):</source>
        <translation>%1 lautet danach wie unten (hinzugefügt: %2):</translation>
    </message>
    <message>
        <source>%1 changed meanwhile; check the new text and choose again.</source>
        <translation>%1 wurde inzwischen geändert; prüfen Sie den neuen Text und wählen Sie erneut.</translation>
    </message>
    <message>
        <source>This profile takes a value (${%1}); the hosts apply whatever value it is started with.</source>
        <translation>Dieses Profil nimmt einen Wert an (${%1}); die Hosts gelten für jeden Wert, mit dem es gestartet wird.</translation>
    </message>
</context>
<context>
    <name>moat::gui::ApprovalPrompt</name>
    <message>
        <source>moat: an agent asks for approval</source>
        <translation>moat: Ein Agent bittet um Genehmigung</translation>
    </message>
    <message>
        <source>Approval requests</source>
        <translation>Genehmigungsanfragen</translation>
    </message>
    <message>
        <source>Waiting requests</source>
        <translation>Wartende Anfragen</translation>
    </message>
    <message>
        <source>Requests waiting for an answer; the same request from the same session is listed once.</source>
        <translation>Anfragen, die auf eine Antwort warten; dieselbe Anfrage derselben Sitzung wird nur einmal aufgeführt.</translation>
    </message>
    <message>
        <source>Session asking</source>
        <translation>Anfragende Sitzung</translation>
    </message>
    <message>
        <source>What is asked for</source>
        <translation>Was angefragt wird</translation>
    </message>
    <message>
        <source>Command to run in the new sandbox:</source>
        <translation>Befehl, der in der neuen Sandbox ausgeführt werden soll:</translation>
    </message>
    <message>
        <source>Command to run in the new sandbox</source>
        <translation>Befehl, der in der neuen Sandbox ausgeführt werden soll</translation>
    </message>
    <message>
        <source>The agent&apos;s reason, in its own words (not checked by moat):</source>
        <translation>Begründung des Agenten, in seinen eigenen Worten (von moat nicht geprüft):</translation>
    </message>
    <message>
        <source>The agent&apos;s stated reason, untrusted</source>
        <translation>Die vom Agenten angegebene Begründung, nicht vertrauenswürdig</translation>
    </message>
    <message>
        <source>Why a person is asked</source>
        <translation>Warum ein Mensch gefragt wird</translation>
    </message>
    <message>
        <source>How often it was asked</source>
        <translation>Wie oft gefragt wurde</translation>
    </message>
    <message>
        <source>Approve for</source>
        <translation>Genehmigen für</translation>
    </message>
    <message>
        <source>Scope of an approval</source>
        <translation>Geltungsbereich einer Genehmigung</translation>
    </message>
    <message>
        <source>&amp;Once</source>
        <translation>&amp;Einmal</translation>
    </message>
    <message>
        <source>Approve this request only</source>
        <translation>Nur diese Anfrage genehmigen</translation>
    </message>
    <message>
        <source>This &amp;session</source>
        <translation>Diese &amp;Sitzung</translation>
    </message>
    <message>
        <source>Approve this request and the same request from this session later</source>
        <translation>Diese Anfrage und dieselbe Anfrage dieser Sitzung auch später genehmigen</translation>
    </message>
    <message>
        <source>Always for this &amp;profile</source>
        <translation>Immer für dieses &amp;Profil</translation>
    </message>
    <message>
        <source>Time left before the request is denied</source>
        <translation>Verbleibende Zeit, bis die Anfrage abgelehnt wird</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>&amp;Deny</source>
        <translation>&amp;Ablehnen</translation>
    </message>
    <message>
        <source>Deny the request</source>
        <translation>Die Anfrage ablehnen</translation>
    </message>
    <message>
        <source>&amp;Approve</source>
        <translation>&amp;Genehmigen</translation>
    </message>
    <message>
        <source>Approve the request</source>
        <translation>Die Anfrage genehmigen</translation>
    </message>
    <message>
        <source>Session %1 sent a request that one of your ask rules holds:</source>
        <translation>Sitzung %1 hat eine Anfrage gesendet, die eine Ihrer Nachfrageregeln zurückhält:</translation>
    </message>
    <message>
        <source>Session %1 asks for a new sandbox with:</source>
        <translation>Sitzung %1 bittet um eine neue Sandbox mit:</translation>
    </message>
    <message>
        <source>(the same command again)</source>
        <translation>(wieder derselbe Befehl)</translation>
    </message>
    <message>
        <source>Your rule: %1</source>
        <translation>Ihre Regel: %1</translation>
    </message>
    <message>
        <source>policy.toml: %1</source>
        <translation>policy.toml: %1</translation>
    </message>
    <message numerus="yes">
        <source>Asked %n times; one answer answers all.</source>
        <translation>
            <numerusform>%n-mal gefragt; eine Antwort gilt für alle.</numerusform>
            <numerusform>%n-mal gefragt; eine Antwort gilt für alle.</numerusform>
        </translation>
    </message>
    <message>
        <source>An approved request starts a new sandbox in place of this session: there is no later request from this session to approve.</source>
        <translation>Eine genehmigte Anfrage startet anstelle dieser Sitzung eine neue Sandbox: Es gibt keine spätere Anfrage dieser Sitzung, die genehmigt werden könnte.</translation>
    </message>
    <message>
        <source>Countdown paused; moatd denies it at %1 if nobody answers.</source>
        <translation>Countdown angehalten; moatd lehnt die Anfrage um %1 ab, wenn niemand antwortet.</translation>
    </message>
    <message>
        <source>Countdown paused.</source>
        <translation>Countdown angehalten.</translation>
    </message>
    <message numerus="yes">
        <source>Denied in %n s unless you answer.</source>
        <translation>
            <numerusform>Wird in %n s abgelehnt, wenn Sie nicht antworten.</numerusform>
            <numerusform>Wird in %n s abgelehnt, wenn Sie nicht antworten.</numerusform>
        </translation>
    </message>
    <message>
        <source>Approve now and add the hosts to this session&apos;s profile</source>
        <translation>Jetzt genehmigen und die Hosts dem Profil dieser Sitzung hinzufügen</translation>
    </message>
    <message>
        <source>“%1”</source>
        <translation>„%1“</translation>
    </message>
    <message>
        <source>Approve now, and add %1 to the profile %2 once you have seen the file&apos;s new text: sessions started with --profile %2 may then reach it without asking.</source>
        <translation>Jetzt genehmigen und %1 dem Profil %2 hinzufügen, nachdem Sie den neuen Text der Datei gesehen haben: Mit --profile %2 gestartete Sitzungen dürfen es dann ohne Nachfrage erreichen.</translation>
    </message>
    <message>
        <source>Always for the profile %1</source>
        <translation>Immer für das Profil %1</translation>
    </message>
    <message>
        <source>Check the profile&apos;s new text; nothing is approved until it is written.</source>
        <translation>Prüfen Sie den neuen Text des Profils; nichts wird genehmigt, bevor er geschrieben ist.</translation>
    </message>
    <message>
        <source>Nothing was written and nothing approved; the request still waits.</source>
        <translation>Nichts wurde geschrieben und nichts genehmigt; die Anfrage wartet weiter.</translation>
    </message>
    <message>
        <source>%1 now allows the hosts, but moatd decided the request meanwhile.</source>
        <translation>%1 erlaubt die Hosts jetzt, aber moatd hat die Anfrage inzwischen entschieden.</translation>
    </message>
    <message>
        <source>%1 now allows the hosts; the request is approved.</source>
        <translation>%1 erlaubt die Hosts jetzt; die Anfrage ist genehmigt.</translation>
    </message>
</context>
<context>
    <name>moat::gui::ApprovalQueue</name>
    <message>
        <source>moatd did not take the answer: %1</source>
        <translation>moatd hat die Antwort nicht angenommen: %1</translation>
    </message>
</context>
<context>
    <name>moat::gui::ApprovalTray</name>
    <message>
        <source>Show approval requests</source>
        <translation>Genehmigungsanfragen anzeigen</translation>
    </message>
    <message numerus="yes">
        <source>moat: %n approval request(s) waiting</source>
        <translation>
            <numerusform>moat: %n Genehmigungsanfrage wartet</numerusform>
            <numerusform>moat: %n Genehmigungsanfragen warten</numerusform>
        </translation>
    </message>
    <message>
        <source>moat: no approval requests waiting</source>
        <translation>moat: keine wartenden Genehmigungsanfragen</translation>
    </message>
    <message>
        <source>An agent asks for approval</source>
        <translation>Ein Agent bittet um Genehmigung</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>Anzeigen</translation>
    </message>
</context>
<context>
    <name>moat::gui::EventKind</name>
    <message>
        <source>Command run</source>
        <translation>Befehlsausführung</translation>
    </message>
    <message>
        <source>Network allowed</source>
        <translation>Netzwerk erlaubt</translation>
    </message>
    <message>
        <source>Network denied</source>
        <translation>Netzwerk abgelehnt</translation>
    </message>
    <message>
        <source>DNS</source>
        <translation>DNS</translation>
    </message>
    <message>
        <source>Secret use</source>
        <translation>Geheimnisnutzung</translation>
    </message>
    <message>
        <source>Approval</source>
        <translation>Genehmigung</translation>
    </message>
    <message>
        <source>Checkpoint</source>
        <translation>Checkpoint</translation>
    </message>
    <message>
        <source>Expiry</source>
        <translation>Ablauf</translation>
    </message>
    <message>
        <source>Session</source>
        <translation>Sitzung</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>Sonstiges</translation>
    </message>
</context>
<context>
    <name>moat::gui::EventSummary</name>
    <message>
        <source>%1 (request %2)</source>
        <translation>%1 (Anfrage %2)</translation>
    </message>
    <message>
        <source>%1 by %2 (request %3)</source>
        <translation>%1 durch %2 (Anfrage %3)</translation>
    </message>
    <message>
        <source>%1, exit status %2</source>
        <translation>%1, Exit-Status %2</translation>
    </message>
</context>
<context>
    <name>moat::gui::MainWindow</name>
    <message>
        <source>moat</source>
        <translation>moat</translation>
    </message>
    <message>
        <source>&amp;Sessions</source>
        <translation>&amp;Sitzungen</translation>
    </message>
    <message>
        <source>Connection to moatd</source>
        <translation>Verbindung zu moatd</translation>
    </message>
    <message>
        <source>Connecting to moatd…</source>
        <translation>Verbindung zu moatd wird hergestellt…</translation>
    </message>
    <message>
        <source>%1 ended with status %2.</source>
        <translation>%1 wurde mit Status %2 beendet.</translation>
    </message>
    <message>
        <source>moatd: connected</source>
        <translation>moatd: verbunden</translation>
    </message>
    <message>
        <source>moatd: not connected</source>
        <translation>moatd: nicht verbunden</translation>
    </message>
    <message>
        <source>The sandbox did not start</source>
        <translation>Die Sandbox wurde nicht gestartet</translation>
    </message>
    <message>
        <source>Starting %1…</source>
        <translation>%1 wird gestartet…</translation>
    </message>
    <message>
        <source>Quit moat-manager</source>
        <translation>moat-manager beenden</translation>
    </message>
    <message numerus="yes">
        <source>%n session(s) started from this window will be stopped: their terminals are here. Quit anyway?</source>
        <translation>
            <numerusform>%n aus diesem Fenster gestartete Sitzung wird beendet, denn ihr Terminal läuft hier. Trotzdem beenden?</numerusform>
            <numerusform>%n aus diesem Fenster gestartete Sitzungen werden beendet, denn ihre Terminals laufen hier. Trotzdem beenden?</numerusform>
        </translation>
    </message>
    <message>
        <source>S&amp;ecrets</source>
        <translation>&amp;Geheimnisse</translation>
    </message>
    <message>
        <source>&amp;Policy</source>
        <translation>&amp;Richtlinie</translation>
    </message>
    <message>
        <source>&amp;Report card</source>
        <translation>Sicherheits&amp;bewertung</translation>
    </message>
    <message>
        <source>[This session was not started from this window: its terminal is where it was started. Its timeline is in the next tab.]</source>
        <translation>[Diese Sitzung wurde nicht aus diesem Fenster gestartet: Das Terminal der Sitzung ist dort, wo sie gestartet wurde. Die Zeitleiste der Sitzung steht im nächsten Tab.]</translation>
    </message>
</context>
<context>
    <name>moat::gui::MoatdConnection</name>
    <message>
        <source>There is no session bus to reach moatd on: %1. Log in to a desktop session, or set DBUS_SESSION_BUS_ADDRESS.</source>
        <translation>Es gibt keinen Session-Bus, über den moatd erreichbar ist: %1. Melden Sie sich an einer Desktop-Sitzung an oder setzen Sie DBUS_SESSION_BUS_ADDRESS.</translation>
    </message>
    <message>
        <source>moatd stopped. Reconnecting; it is started again on the next call.</source>
        <translation>moatd wurde beendet. Die Verbindung wird wiederhergestellt; moatd startet beim nächsten Aufruf erneut.</translation>
    </message>
    <message>
        <source>moatd is not answering (%1). Retrying every few seconds.</source>
        <translation>moatd antwortet nicht (%1). Neuer Versuch alle paar Sekunden.</translation>
    </message>
    <message>
        <source>Reconnected to moatd.</source>
        <translation>Wieder mit moatd verbunden.</translation>
    </message>
    <message>
        <source>Connected to moatd.</source>
        <translation>Mit moatd verbunden.</translation>
    </message>
</context>
<context>
    <name>moat::gui::NetworkSummaryModel</name>
    <message>
        <source>Host</source>
        <translation>Host</translation>
    </message>
    <message>
        <source>Allowed</source>
        <translation>Erlaubt</translation>
    </message>
    <message>
        <source>Denied</source>
        <translation>Abgelehnt</translation>
    </message>
    <message>
        <source>DNS queries</source>
        <translation>DNS-Anfragen</translation>
    </message>
</context>
<context>
    <name>moat::gui::NewSandboxDialog</name>
    <message>
        <source>New sandbox</source>
        <translation>Neue Sandbox</translation>
    </message>
    <message>
        <source>Image</source>
        <translation>Image</translation>
    </message>
    <message>
        <source>host: the host&apos;s own files, read-only; or a folder holding a root file system</source>
        <translation>host: die eigenen Dateien des Hosts, schreibgeschützt; oder ein Ordner mit einem Root-Dateisystem</translation>
    </message>
    <message>
        <source>Folder…</source>
        <translation>Ordner…</translation>
    </message>
    <message>
        <source>Choose a root file system folder</source>
        <translation>Ordner mit einem Root-Dateisystem wählen</translation>
    </message>
    <message>
        <source>&amp;Image:</source>
        <translation>&amp;Image:</translation>
    </message>
    <message>
        <source>Workspace folder</source>
        <translation>Ordner des Arbeitsbereichs</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Durchsuchen…</translation>
    </message>
    <message>
        <source>Choose the workspace folder</source>
        <translation>Ordner des Arbeitsbereichs wählen</translation>
    </message>
    <message>
        <source>&amp;Workspace:</source>
        <translation>&amp;Arbeitsbereich:</translation>
    </message>
    <message>
        <source>Agent</source>
        <translation>Agent</translation>
    </message>
    <message>
        <source>&amp;Agent:</source>
        <translation>Agen&amp;t:</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>Befehl</translation>
    </message>
    <message>
        <source>&amp;Command:</source>
        <translation>&amp;Befehl:</translation>
    </message>
    <message>
        <source>Profile</source>
        <translation>Profil</translation>
    </message>
    <message>
        <source>NAME, or NAME=VALUE for a profile with a parameter (github-readonly=OWNER/REPO)</source>
        <translation>NAME oder NAME=WERT für ein Profil mit Parameter (github-readonly=OWNER/REPO)</translation>
    </message>
    <message>
        <source>&amp;Profile:</source>
        <translation>&amp;Profil:</translation>
    </message>
    <message>
        <source>Hosts the agent may reach</source>
        <translation>Hosts, die der Agent erreichen darf</translation>
    </message>
    <message>
        <source>Host to add</source>
        <translation>Hinzuzufügender Host</translation>
    </message>
    <message>
        <source>host[:port] or *.example.com</source>
        <translation>host[:port] oder *.example.com</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Hinzufügen</translation>
    </message>
    <message>
        <source>Add host</source>
        <translation>Host hinzufügen</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <source>Remove the selected host</source>
        <translation>Den ausgewählten Host entfernen</translation>
    </message>
    <message>
        <source>Network &amp;hosts:</source>
        <translation>Netzwerk-&amp;Hosts:</translation>
    </message>
    <message>
        <source>Network mode</source>
        <translation>Netzwerkmodus</translation>
    </message>
    <message>
        <source>proxy: only the hosts above</source>
        <translation>proxy: nur die Hosts oben</translation>
    </message>
    <message>
        <source>none: no network</source>
        <translation>none: kein Netzwerk</translation>
    </message>
    <message>
        <source>open: the host&apos;s network, no egress control</source>
        <translation>open: das Netzwerk des Hosts, ohne Kontrolle des ausgehenden Datenverkehrs</translation>
    </message>
    <message>
        <source>&amp;Network:</source>
        <translation>&amp;Netzwerk:</translation>
    </message>
    <message>
        <source>sudo: root inside its own user namespace</source>
        <translation>sudo: root in einem eigenen User-Namespace</translation>
    </message>
    <message>
        <source>sudo</source>
        <translation>sudo</translation>
    </message>
    <message>
        <source>docker: a container engine inside</source>
        <translation>docker: eine Container-Engine in der Sandbox</translation>
    </message>
    <message>
        <source>docker</source>
        <translation>docker</translation>
    </message>
    <message>
        <source>yolo: give up the boundary</source>
        <translation>yolo: die Isolationsgrenze aufgeben</translation>
    </message>
    <message>
        <source>yolo</source>
        <translation>yolo</translation>
    </message>
    <message>
        <source>With yolo the agent gets sudo, the open network and every file you can read. Only the records and the expiry stay outside its reach. Use it only for an agent you would let use your account.</source>
        <translation>Mit yolo erhält der Agent sudo, das offene Netzwerk und jede Datei, die Sie lesen können. Nur die Aufzeichnungen und der Ablauf bleiben außerhalb seiner Reichweite. Verwenden Sie es nur für einen Agenten, dem Sie auch Ihr Benutzerkonto überlassen würden.</translation>
    </message>
    <message>
        <source>Powers:</source>
        <translation>Zusatzrechte:</translation>
    </message>
    <message>
        <source>Secrets to bind</source>
        <translation>Einzubindende Geheimnisse</translation>
    </message>
    <message>
        <source>&amp;Secrets:</source>
        <translation>&amp;Geheimnisse:</translation>
    </message>
    <message>
        <source>Time to live</source>
        <translation>Lebensdauer</translation>
    </message>
    <message>
        <source>&amp;Time to live:</source>
        <translation>&amp;Lebensdauer:</translation>
    </message>
    <message>
        <source>Session name</source>
        <translation>Sitzungsname</translation>
    </message>
    <message>
        <source>Na&amp;me:</source>
        <translation>Na&amp;me:</translation>
    </message>
    <message>
        <source>The equivalent moat run command</source>
        <translation>Der entsprechende Befehl moat run</translation>
    </message>
    <message>
        <source>Equivalent command:</source>
        <translation>Entsprechender Befehl:</translation>
    </message>
    <message>
        <source>Adds hosts: %1</source>
        <translation>Fügt Hosts hinzu: %1</translation>
    </message>
    <message numerus="yes">
        <source>Adds %n rule(s): %1</source>
        <translation>
            <numerusform>Fügt %n Regel hinzu: %1</numerusform>
            <numerusform>Fügt %n Regeln hinzu: %1</numerusform>
        </translation>
    </message>
    <message>
        <source>The profile cannot be used: see the message under it.</source>
        <translation>Das Profil kann nicht verwendet werden: siehe die Meldung darunter.</translation>
    </message>
    <message>
        <source>The command has a quote that is not closed, or ends in a lone backslash.</source>
        <translation>Der Befehl enthält ein nicht geschlossenes Anführungszeichen oder endet mit einem einzelnen Backslash.</translation>
    </message>
    <message>
        <source>Give the command to run.</source>
        <translation>Geben Sie den auszuführenden Befehl an.</translation>
    </message>
    <message>
        <source>Root file system folder</source>
        <translation>Ordner mit Root-Dateisystem</translation>
    </message>
    <message>
        <source>C&amp;opy command</source>
        <translation>Befehl &amp;kopieren</translation>
    </message>
    <message>
        <source>Sta&amp;rt</source>
        <translation>&amp;Starten</translation>
    </message>
    <message>
        <source>Bound by the profile</source>
        <translation>Vom Profil eingebunden</translation>
    </message>
</context>
<context>
    <name>moat::gui::OriginBadge</name>
    <message>
        <source>Reset</source>
        <translation>Zurücksetzen</translation>
    </message>
    <message>
        <source>default</source>
        <translation>Standard</translation>
    </message>
    <message>
        <source>from profile</source>
        <translation>aus dem Profil</translation>
    </message>
    <message>
        <source>set by you</source>
        <translation>von Ihnen gesetzt</translation>
    </message>
    <message>
        <source>Where the network hosts come from</source>
        <translation>Herkunft der Netzwerk-Hosts</translation>
    </message>
    <message>
        <source>Reset the network hosts</source>
        <translation>Netzwerk-Hosts zurücksetzen</translation>
    </message>
    <message>
        <source>Remove the hosts you added; the profile&apos;s hosts stay</source>
        <translation>Die von Ihnen hinzugefügten Hosts entfernen; die Hosts des Profils bleiben</translation>
    </message>
    <message>
        <source>Where the network mode comes from</source>
        <translation>Herkunft des Netzwerkmodus</translation>
    </message>
    <message>
        <source>Reset the network mode</source>
        <translation>Netzwerkmodus zurücksetzen</translation>
    </message>
    <message>
        <source>Put the network mode back to the profile&apos;s value or moat&apos;s default</source>
        <translation>Netzwerkmodus auf den Wert des Profils oder den Standardwert von moat zurücksetzen</translation>
    </message>
    <message>
        <source>Where sudo comes from</source>
        <translation>Herkunft von sudo</translation>
    </message>
    <message>
        <source>Reset sudo</source>
        <translation>sudo zurücksetzen</translation>
    </message>
    <message>
        <source>Turn sudo off again, moat&apos;s default</source>
        <translation>sudo wieder ausschalten (Standard von moat)</translation>
    </message>
    <message>
        <source>Where docker comes from</source>
        <translation>Herkunft von docker</translation>
    </message>
    <message>
        <source>Reset docker</source>
        <translation>docker zurücksetzen</translation>
    </message>
    <message>
        <source>Turn docker off again, moat&apos;s default</source>
        <translation>docker wieder ausschalten (Standard von moat)</translation>
    </message>
    <message>
        <source>Where yolo comes from</source>
        <translation>Herkunft von yolo</translation>
    </message>
    <message>
        <source>Reset yolo</source>
        <translation>yolo zurücksetzen</translation>
    </message>
    <message>
        <source>Turn yolo off again, moat&apos;s default</source>
        <translation>yolo wieder ausschalten (Standard von moat)</translation>
    </message>
    <message>
        <source>Where the secrets come from</source>
        <translation>Herkunft der Geheimnisse</translation>
    </message>
    <message>
        <source>Reset the secrets</source>
        <translation>Geheimnisse zurücksetzen</translation>
    </message>
    <message>
        <source>Unbind the secrets you chose; the profile&apos;s stay</source>
        <translation>Die von Ihnen gewählten Geheimnisse lösen; die des Profils bleiben</translation>
    </message>
    <message>
        <source>Where the time to live comes from</source>
        <translation>Herkunft der Lebensdauer</translation>
    </message>
    <message>
        <source>Reset the time to live</source>
        <translation>Lebensdauer zurücksetzen</translation>
    </message>
    <message>
        <source>Put the time to live back to the profile&apos;s value or moat&apos;s default</source>
        <translation>Lebensdauer auf den Wert des Profils oder den Standardwert von moat zurücksetzen</translation>
    </message>
</context>
<context>
    <name>moat::gui::OutputPane</name>
    <message>
        <source>&amp;Interrupt</source>
        <translation>&amp;Unterbrechen</translation>
    </message>
    <message>
        <source>Agent output</source>
        <translation>Ausgabe des Agenten</translation>
    </message>
    <message>
        <source>Input to the agent</source>
        <translation>Eingabe an den Agenten</translation>
    </message>
    <message>
        <source>Type a line for the agent and press Enter</source>
        <translation>Zeile für den Agenten eingeben und Eingabetaste drücken</translation>
    </message>
    <message>
        <source>Send the line to the agent</source>
        <translation>Die Zeile an den Agenten senden</translation>
    </message>
    <message>
        <source>Send Ctrl+C to the agent</source>
        <translation>Strg+C an den Agenten senden</translation>
    </message>
    <message>
        <source>Sends an interrupt (Ctrl+C) to the agent&apos;s terminal</source>
        <translation>Sendet eine Unterbrechung (Strg+C) an das Terminal des Agenten</translation>
    </message>
    <message>
        <source>Sen&amp;d</source>
        <translation>Sen&amp;den</translation>
    </message>
    <message>
        <source>Inp&amp;ut:</source>
        <translation>&amp;Eingabe:</translation>
    </message>
</context>
<context>
    <name>moat::gui::PolicyPage</name>
    <message>
        <source>Policy</source>
        <translation>Richtlinie</translation>
    </message>
    <message>
        <source>What an agent may grant itself when it asks for more from inside a sandbox (moat request): granted on its own, asked of you, or refused. An approval only changes the sandbox started next; the running one never gains anything.</source>
        <translation>Was ein Agent sich selbst gewähren darf, wenn er aus einer Sandbox heraus mehr anfordert (moat request): automatisch gewährt, bei Ihnen nachgefragt oder verweigert. Eine Genehmigung ändert nur die als Nächstes gestartete Sandbox; die laufende erhält nie zusätzliche Rechte.</translation>
    </message>
    <message>
        <source>Policy file problem</source>
        <translation>Problem mit der Richtliniendatei</translation>
    </message>
    <message>
        <source>Another &amp;host</source>
        <translation>Weiterer &amp;Host</translation>
    </message>
    <message>
        <source>A host not named in the lists below (moat request --allow-host)</source>
        <translation>Ein Host, der in den Listen unten nicht genannt ist (moat request --allow-host)</translation>
    </message>
    <message>
        <source>Root inside the sandbox&apos;s own user namespace (moat request --sudo)</source>
        <translation>Root im eigenen User-Namespace der Sandbox (moat request --sudo)</translation>
    </message>
    <message>
        <source>A &amp;container engine</source>
        <translation>Eine &amp;Container-Engine</translation>
    </message>
    <message>
        <source>Docker inside the sandbox (moat request --docker)</source>
        <translation>Docker in der Sandbox (moat request --docker)</translation>
    </message>
    <message>
        <source>The &amp;open network</source>
        <translation>Das &amp;offene Netzwerk</translation>
    </message>
    <message>
        <source>The host&apos;s network without egress control (moat request --net open)</source>
        <translation>Das Netzwerk des Hosts ohne Kontrolle des ausgehenden Datenverkehrs (moat request --net open)</translation>
    </message>
    <message>
        <source>Hosts &amp;approved on their own</source>
        <translation>A&amp;utomatisch genehmigte Hosts</translation>
    </message>
    <message>
        <source>Host patterns granted without asking, e.g. *.pypi.org, registry.npmjs.org</source>
        <translation>Host-Muster, die ohne Nachfrage gewährt werden, z. B. *.pypi.org, registry.npmjs.org</translation>
    </message>
    <message>
        <source>Host patterns refused without asking, e.g. *.internal.example</source>
        <translation>Host-Muster, die ohne Nachfrage verweigert werden, z. B. *.internal.example</translation>
    </message>
    <message>
        <source>A question &amp;waits</source>
        <translation>Eine Frage &amp;wartet</translation>
    </message>
    <message>
        <source>How long a question waits for you before it counts as a deny, e.g. 2m (at most 10m)</source>
        <translation>Wie lange eine Frage auf Sie wartet, bevor sie als Ablehnung gilt, z. B. 2m (höchstens 10m)</translation>
    </message>
    <message>
        <source>Policy file</source>
        <translation>Richtliniendatei</translation>
    </message>
    <message>
        <source>Re&amp;vert</source>
        <translation>Verw&amp;erfen</translation>
    </message>
    <message>
        <source>Drop unsaved changes and read the policy again</source>
        <translation>Ungespeicherte Änderungen verwerfen und die Richtlinie neu einlesen</translation>
    </message>
    <message>
        <source>Save the policy</source>
        <translation>Die Richtlinie speichern</translation>
    </message>
    <message>
        <source>Granted on its own</source>
        <translation>Automatisch gewährt</translation>
    </message>
    <message>
        <source>Ask me</source>
        <translation>Mich fragen</translation>
    </message>
    <message>
        <source>Refused</source>
        <translation>Verweigert</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>Where %1 comes from</source>
        <translation>Herkunft des Werts „%1“</translation>
    </message>
    <message>
        <source>Reset</source>
        <translation>Zurücksetzen</translation>
    </message>
    <message>
        <source>Back to moat&apos;s default</source>
        <translation>Zurück zum Standardwert von moat</translation>
    </message>
    <message>
        <source>Reset %1 to moat&apos;s default</source>
        <translation>„%1“ auf den Standardwert von moat zurücksetzen</translation>
    </message>
    <message>
        <source>Could not read the policy: %1</source>
        <translation>Die Richtlinie konnte nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>Your policy file cannot be used, so every request is refused until it is fixed or saved here again (saving starts from moat&apos;s defaults): %1</source>
        <translation>Ihre Richtliniendatei kann nicht verwendet werden; daher wird jede Anfrage verweigert, bis die Datei korrigiert oder hier erneut gespeichert wird (das Speichern geht von den Standardwerten von moat aus): %1</translation>
    </message>
    <message>
        <source>Kept in %1</source>
        <translation>Gespeichert in %1</translation>
    </message>
    <message>
        <source>your policy</source>
        <translation>Ihre Richtlinie</translation>
    </message>
    <message>
        <source>default</source>
        <translation>Standard</translation>
    </message>
    <message>
        <source>%1 (not saved)</source>
        <translation>%1 (nicht gespeichert)</translation>
    </message>
    <message>
        <source>Saved. The next request an agent makes is judged by this policy.</source>
        <translation>Gespeichert. Die nächste Anfrage eines Agenten wird nach dieser Richtlinie beurteilt.</translation>
    </message>
    <message>
        <source>Roo&amp;t in the sandbox</source>
        <translation>Roo&amp;t in der Sandbox</translation>
    </message>
    <message>
        <source>Hosts always re&amp;fused</source>
        <translation>Immer &amp;verweigerte Hosts</translation>
    </message>
    <message>
        <source>Save po&amp;licy</source>
        <translation>Richtlinie s&amp;peichern</translation>
    </message>
</context>
<context>
    <name>moat::gui::ProfileRuleWriter</name>
    <message>
        <source>&quot;%1&quot; is not a profile name: use letters, digits, &apos;.&apos;, &apos;_&apos; and &apos;-&apos;.</source>
        <translation>„%1“ ist kein Profilname: Verwenden Sie Buchstaben, Ziffern, &apos;.&apos;, &apos;_&apos; und &apos;-&apos;.</translation>
    </message>
    <message>
        <source>%1 cannot be read: %2</source>
        <translation>%1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>The allow_host list in %1 could not be located.</source>
        <translation>Die Liste allow_host in %1 wurde nicht gefunden.</translation>
    </message>
    <message>
        <source>allow_host in %1 is not a list; fix the file first.</source>
        <translation>allow_host in %1 ist keine Liste; korrigieren Sie zuerst die Datei.</translation>
    </message>
    <message>
        <source>The profile would not be valid: %1</source>
        <translation>Das Profil wäre nicht gültig: %1</translation>
    </message>
    <message>
        <source>%1 is not valid TOML (%2); fix it first.</source>
        <translation>%1 ist kein gültiges TOML (%2); korrigieren Sie zuerst die Datei.</translation>
    </message>
    <message>
        <source>The profile directory for %1 cannot be made.</source>
        <translation>Das Profilverzeichnis für %1 kann nicht angelegt werden.</translation>
    </message>
    <message>
        <source>%1 cannot be written: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
</context>
<context>
    <name>moat::gui::PtyProcess</name>
    <message>
        <source>Cannot open a pseudo-terminal: %1</source>
        <translation>Pseudoterminal kann nicht geöffnet werden: %1</translation>
    </message>
    <message>
        <source>Cannot name the pseudo-terminal: %1</source>
        <translation>Name des Pseudoterminals kann nicht ermittelt werden: %1</translation>
    </message>
    <message>
        <source>Cannot start %1: %2</source>
        <translation>%1 kann nicht gestartet werden: %2</translation>
    </message>
</context>
<context>
    <name>moat::gui::ReportCardPage</name>
    <message>
        <source>1. Isolation boundary</source>
        <translation>1. Isolationsgrenze</translation>
    </message>
    <message>
        <source>2. Kernel support for an inner sandbox</source>
        <translation>2. Kernel-Unterstützung für eine innere Sandbox</translation>
    </message>
    <message>
        <source>3. Agent privilege</source>
        <translation>3. Rechte des Agenten</translation>
    </message>
    <message>
        <source>4. Control plane inside the machine</source>
        <translation>4. Steuerungsebene innerhalb der Maschine</translation>
    </message>
    <message>
        <source>5. Egress</source>
        <translation>5. Ausgehender Datenverkehr</translation>
    </message>
    <message>
        <source>6. Secrets</source>
        <translation>6. Geheimnisse</translation>
    </message>
    <message>
        <source>7. Recovery and records</source>
        <translation>7. Wiederherstellung und Aufzeichnungen</translation>
    </message>
    <message>
        <source>Report card</source>
        <translation>Sicherheitsbewertung</translation>
    </message>
    <message>
        <source>What an agent could reach, graded A (best) to D by moat probe: inside a fresh sandbox with moat&apos;s default flags, and on this machine without a sandbox.</source>
        <translation>Was ein Agent erreichen könnte, von moat probe mit A (am besten) bis D benotet: in einer neuen Sandbox mit den Standard-Flags von moat und auf diesem Rechner ohne Sandbox.</translation>
    </message>
    <message>
        <source>Default sandbox probe status</source>
        <translation>Status der Prüfung der Standard-Sandbox</translation>
    </message>
    <message>
        <source>Host probe status</source>
        <translation>Status der Host-Prüfung</translation>
    </message>
    <message>
        <source>Grades and evidence per criterion</source>
        <translation>Noten und Belege je Kriterium</translation>
    </message>
    <message>
        <source>Criterion</source>
        <translation>Kriterium</translation>
    </message>
    <message>
        <source>Default sandbox</source>
        <translation>Standard-Sandbox</translation>
    </message>
    <message>
        <source>Evidence (sandbox)</source>
        <translation>Belege (Sandbox)</translation>
    </message>
    <message>
        <source>This host</source>
        <translation>Dieser Host</translation>
    </message>
    <message>
        <source>Evidence (host)</source>
        <translation>Belege (Host)</translation>
    </message>
    <message>
        <source>Run both probes again</source>
        <translation>Beide Prüfungen erneut ausführen</translation>
    </message>
    <message>
        <source>Not run yet.</source>
        <translation>Noch nicht ausgeführt.</translation>
    </message>
    <message>
        <source>Could not start %1: %2. moat-manager looks for moat beside itself, then on PATH.</source>
        <translation>%1 konnte nicht gestartet werden: %2. moat-manager sucht moat zuerst neben sich selbst, dann im PATH.</translation>
    </message>
    <message>
        <source>it printed no report</source>
        <translation>sie hat keinen Bericht ausgegeben</translation>
    </message>
    <message>
        <source>Grade %1</source>
        <translation>Note %1</translation>
    </message>
    <message>
        <source>Run a&amp;gain</source>
        <translation>&amp;Erneut ausführen</translation>
    </message>
    <message>
        <source>Probing a fresh default sandbox…</source>
        <translation>Eine neue Standard-Sandbox wird geprüft…</translation>
    </message>
    <message>
        <source>The sandbox probe ran at %1.</source>
        <translation>Die Sandbox-Prüfung wurde um %1 ausgeführt.</translation>
    </message>
    <message>
        <source>The sandbox probe was interrupted before it finished. %1</source>
        <translation>Die Sandbox-Prüfung wurde vor dem Ende unterbrochen. %1</translation>
    </message>
    <message>
        <source>The sandbox probe failed (exit status %1): %2</source>
        <translation>Die Sandbox-Prüfung ist fehlgeschlagen (Exit-Status %1): %2</translation>
    </message>
    <message>
        <source>Probing this host…</source>
        <translation>Dieser Host wird geprüft…</translation>
    </message>
    <message>
        <source>The host probe ran at %1.</source>
        <translation>Die Host-Prüfung wurde um %1 ausgeführt.</translation>
    </message>
    <message>
        <source>The host probe was interrupted before it finished. %1</source>
        <translation>Die Host-Prüfung wurde vor dem Ende unterbrochen. %1</translation>
    </message>
    <message>
        <source>The host probe failed (exit status %1): %2</source>
        <translation>Die Host-Prüfung ist fehlgeschlagen (Exit-Status %1): %2</translation>
    </message>
</context>
<context>
    <name>moat::gui::SecretsPage</name>
    <message>
        <source>Secrets</source>
        <translation>Geheimnisse</translation>
    </message>
    <message>
        <source>Secrets a sandbox may use by placeholder. The value stays in your keychain: it is sent only to the hosts named here, in the headers named here, and is never shown again once saved.</source>
        <translation>Geheimnisse, die eine Sandbox über einen Platzhalter nutzen darf. Der Wert bleibt in Ihrem Schlüsselbund: Er wird nur an die hier genannten Hosts in den hier genannten Headern gesendet und nach dem Speichern nie wieder angezeigt.</translation>
    </message>
    <message>
        <source>Saved secrets</source>
        <translation>Gespeicherte Geheimnisse</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Hosts</source>
        <translation>Hosts</translation>
    </message>
    <message>
        <source>Headers</source>
        <translation>Header</translation>
    </message>
    <message>
        <source>Change the selected secret&apos;s hosts or headers</source>
        <translation>Hosts oder Header des ausgewählten Geheimnisses ändern</translation>
    </message>
    <message>
        <source>Remove the selected secret</source>
        <translation>Das ausgewählte Geheimnis entfernen</translation>
    </message>
    <message>
        <source>Re&amp;load</source>
        <translation>Neu &amp;laden</translation>
    </message>
    <message>
        <source>Reload the list of secrets</source>
        <translation>Die Liste der Geheimnisse neu laden</translation>
    </message>
    <message>
        <source>Add or replace a secret</source>
        <translation>Geheimnis hinzufügen oder ersetzen</translation>
    </message>
    <message>
        <source>Secret name</source>
        <translation>Name des Geheimnisses</translation>
    </message>
    <message>
        <source>e.g. GITHUB_TOKEN</source>
        <translation>z. B. GITHUB_TOKEN</translation>
    </message>
    <message>
        <source>Secret value</source>
        <translation>Wert des Geheimnisses</translation>
    </message>
    <message>
        <source>the value; not shown, not kept here</source>
        <translation>der Wert; wird nicht angezeigt und hier nicht aufbewahrt</translation>
    </message>
    <message>
        <source>Hosts the value may be sent to</source>
        <translation>Hosts, an die der Wert gesendet werden darf</translation>
    </message>
    <message>
        <source>e.g. api.github.com, *.acme.example</source>
        <translation>z. B. api.github.com, *.acme.example</translation>
    </message>
    <message>
        <source>Headers the value may fill</source>
        <translation>Header, die der Wert füllen darf</translation>
    </message>
    <message>
        <source>empty: Authorization only</source>
        <translation>leer: nur Authorization</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>&amp;Name:</translation>
    </message>
    <message>
        <source>&amp;Value:</source>
        <translation>&amp;Wert:</translation>
    </message>
    <message>
        <source>&amp;Hosts:</source>
        <translation>&amp;Hosts:</translation>
    </message>
    <message>
        <source>To change where a secret may go, enter its value again. moat never hands a saved value out, and does not move one to new hosts without it: otherwise any program of yours could redirect your real secret.</source>
        <translation>Um zu ändern, wohin ein Geheimnis gesendet werden darf, geben Sie seinen Wert erneut ein. moat gibt einen gespeicherten Wert nie heraus und überträgt ihn nicht ohne erneute Eingabe auf neue Hosts: Sonst könnte jedes Ihrer Programme Ihr echtes Geheimnis umleiten.</translation>
    </message>
    <message>
        <source>Save the secret to the keychain</source>
        <translation>Das Geheimnis im Schlüsselbund speichern</translation>
    </message>
    <message>
        <source>Could not list the secrets: %1</source>
        <translation>Die Geheimnisse konnten nicht aufgelistet werden: %1</translation>
    </message>
    <message>
        <source>Enter the secret&apos;s value: moat keeps no copy to reuse, so saving (or changing where it may go) needs it.</source>
        <translation>Geben Sie den Wert des Geheimnisses ein: moat behält keine Kopie zur Wiederverwendung, daher wird er zum Speichern (oder um zu ändern, wohin er gesendet werden darf) benötigt.</translation>
    </message>
    <message>
        <source>Saved %1 to the keychain.</source>
        <translation>%1 wurde im Schlüsselbund gespeichert.</translation>
    </message>
    <message>
        <source>Change the hosts or headers of %1, then enter its value again and save.</source>
        <translation>Ändern Sie die Hosts oder Header von %1, geben Sie dann den Wert erneut ein und speichern Sie.</translation>
    </message>
    <message>
        <source>Remove secret</source>
        <translation>Geheimnis entfernen</translation>
    </message>
    <message>
        <source>Remove %1? Its value is deleted from your keychain; sessions started later cannot use it.</source>
        <translation>%1 entfernen? Der Wert wird aus Ihrem Schlüsselbund gelöscht; später gestartete Sitzungen können ihn nicht verwenden.</translation>
    </message>
    <message>
        <source>Removed %1.</source>
        <translation>%1 wurde entfernt.</translation>
    </message>
    <message>
        <source>&amp;Change hosts or headers…</source>
        <translation>Hosts oder Header &amp;ändern…</translation>
    </message>
    <message>
        <source>Re&amp;move…</source>
        <translation>Ent&amp;fernen…</translation>
    </message>
    <message>
        <source>He&amp;aders:</source>
        <translation>Hea&amp;der:</translation>
    </message>
    <message>
        <source>Save secre&amp;t</source>
        <translation>Geheimnis s&amp;peichern</translation>
    </message>
    <message>
        <source>Authorization (the default)</source>
        <translation>Authorization (Standard)</translation>
    </message>
</context>
<context>
    <name>moat::gui::SessionLauncher</name>
    <message>
        <source>Give the session a name: the application finds its terminal by it.</source>
        <translation>Geben Sie der Sitzung einen Namen: Die Anwendung findet ihr Terminal über diesen Namen.</translation>
    </message>
    <message>
        <source>A session named %1 is already running from here. Choose another name.</source>
        <translation>Eine Sitzung namens %1 läuft bereits von hier aus. Wählen Sie einen anderen Namen.</translation>
    </message>
    <message>
        <source>%1 has no running terminal in this window.</source>
        <translation>%1 hat in diesem Fenster kein laufendes Terminal.</translation>
    </message>
</context>
<context>
    <name>moat::gui::SessionListModel</name>
    <message>
        <source>expired</source>
        <translation>abgelaufen</translation>
    </message>
    <message>
        <source>%1h %2m %3s</source>
        <translation>%1 h %2 min %3 s</translation>
    </message>
    <message>
        <source>%1m %2s</source>
        <translation>%1 min %2 s</translation>
    </message>
    <message>
        <source>No extra powers</source>
        <translation>Keine Zusatzrechte</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>Image</source>
        <translation>Image</translation>
    </message>
    <message>
        <source>Flags</source>
        <translation>Flags</translation>
    </message>
    <message>
        <source>Time left</source>
        <translation>Restzeit</translation>
    </message>
    <message>
        <source>Exit status</source>
        <translation>Exit-Status</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>Gestartet</translation>
    </message>
    <message>
        <source>Session</source>
        <translation>Sitzung</translation>
    </message>
    <message>
        <source>moatd sent a session list that is not a JSON array.</source>
        <translation>moatd hat eine Sitzungsliste gesendet, die kein JSON-Array ist.</translation>
    </message>
    <message>
        <source>starting</source>
        <translation>startet</translation>
    </message>
    <message>
        <source>running</source>
        <translation>läuft</translation>
    </message>
    <message>
        <source>exited</source>
        <translation>beendet</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>gestoppt</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
</context>
<context>
    <name>moat::gui::SessionView</name>
    <message>
        <source>Session %1</source>
        <translation>Sitzung %1</translation>
    </message>
    <message>
        <source>&amp;Output</source>
        <translation>&amp;Ausgabe</translation>
    </message>
    <message>
        <source>&amp;Timeline</source>
        <translation>&amp;Zeitleiste</translation>
    </message>
    <message>
        <source>&amp;Network</source>
        <translation>&amp;Netzwerk</translation>
    </message>
    <message>
        <source>Session views</source>
        <translation>Sitzungsansichten</translation>
    </message>
    <message>
        <source>All events</source>
        <translation>Alle Ereignisse</translation>
    </message>
    <message>
        <source>Show events of kind</source>
        <translation>Ereignisse dieser Art anzeigen</translation>
    </message>
    <message>
        <source>Search type and summary</source>
        <translation>Typ und Zusammenfassung durchsuchen</translation>
    </message>
    <message>
        <source>Search the timeline</source>
        <translation>Die Zeitleiste durchsuchen</translation>
    </message>
    <message>
        <source>Timeline status</source>
        <translation>Status der Zeitleiste</translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation>Zeitleiste</translation>
    </message>
    <message>
        <source>Details of the selected event</source>
        <translation>Details des ausgewählten Ereignisses</translation>
    </message>
    <message>
        <source>Select an event to see all of it.</source>
        <translation>Wählen Sie ein Ereignis aus, um es vollständig zu sehen.</translation>
    </message>
    <message>
        <source>&amp;Allow this next time…</source>
        <translation>Beim nächsten Mal &amp;erlauben…</translation>
    </message>
    <message>
        <source>Allow this host next time</source>
        <translation>Diesen Host beim nächsten Mal erlauben</translation>
    </message>
    <message>
        <source>Adds the narrow rule for this denied connection to one of your profiles, after you confirm the exact text</source>
        <translation>Fügt die eng gefasste Regel für diese abgelehnte Verbindung einem Ihrer Profile hinzu, nachdem Sie den genauen Text bestätigt haben</translation>
    </message>
    <message>
        <source>Network by host</source>
        <translation>Netzwerk nach Host</translation>
    </message>
    <message>
        <source>Reading event %1…</source>
        <translation>Ereignis %1 wird gelesen…</translation>
    </message>
    <message>
        <source>Event %1 can no longer be read.</source>
        <translation>Ereignis %1 kann nicht mehr gelesen werden.</translation>
    </message>
    <message>
        <source>Terminal status</source>
        <translation>Terminalstatus</translation>
    </message>
    <message>
        <source>Open in ter&amp;minal</source>
        <translation>Im &amp;Terminal öffnen</translation>
    </message>
    <message>
        <source>Open the session in your terminal emulator</source>
        <translation>Die Sitzung in Ihrem Terminalemulator öffnen</translation>
    </message>
    <message>
        <source>This session was not started from this window: its output is in the terminal where it was started.</source>
        <translation>Diese Sitzung wurde nicht in diesem Fenster gestartet: Ihre Ausgabe steht in dem Terminal, in dem sie gestartet wurde.</translation>
    </message>
    <message>
        <source>The session has ended.</source>
        <translation>Die Sitzung ist beendet.</translation>
    </message>
    <message>
        <source>Opens your terminal emulator on this session&apos;s terminal; the Output tab keeps working</source>
        <translation>Öffnet Ihren Terminalemulator auf dem Terminal dieser Sitzung; der Tab „Ausgabe“ funktioniert weiter</translation>
    </message>
    <message>
        <source>Starting %1…</source>
        <translation>%1 wird gestartet…</translation>
    </message>
    <message>
        <source>Attached in a terminal window; the Output tab keeps working.</source>
        <translation>In einem Terminalfenster verbunden; der Tab „Ausgabe“ funktioniert weiter.</translation>
    </message>
    <message>
        <source>The terminal window was closed; the session goes on here.</source>
        <translation>Das Terminalfenster wurde geschlossen; die Sitzung läuft hier weiter.</translation>
    </message>
    <message numerus="yes">
        <source>%Ln event(s), reading…</source>
        <translation>
            <numerusform>%Ln Ereignis, wird gelesen…</numerusform>
            <numerusform>%Ln Ereignisse, werden gelesen…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln event(s)</source>
        <translation>
            <numerusform>%Ln Ereignis</numerusform>
            <numerusform>%Ln Ereignisse</numerusform>
        </translation>
    </message>
    <message>
        <source>Sho&amp;w:</source>
        <translation>Anze&amp;igen:</translation>
    </message>
    <message>
        <source>Searc&amp;h:</source>
        <translation>Su&amp;chen:</translation>
    </message>
</context>
<context>
    <name>moat::gui::SessionsPage</name>
    <message>
        <source>Search name, state, image, flags…</source>
        <translation>Name, Zustand, Image, Flags durchsuchen…</translation>
    </message>
    <message>
        <source>Search sessions</source>
        <translation>Sitzungen durchsuchen</translation>
    </message>
    <message>
        <source>Sessions</source>
        <translation>Sitzungen</translation>
    </message>
    <message>
        <source>&amp;New sandbox…</source>
        <translation>&amp;Neue Sandbox…</translation>
    </message>
    <message>
        <source>&amp;Open</source>
        <translation>Ö&amp;ffnen</translation>
    </message>
    <message>
        <source>S&amp;top</source>
        <translation>B&amp;eenden</translation>
    </message>
    <message>
        <source>Stop session</source>
        <translation>Sitzung beenden</translation>
    </message>
    <message>
        <source>Stop %1 now? Its command gets SIGTERM, then SIGKILL after a grace period.</source>
        <translation>%1 jetzt beenden? Der Befehl erhält SIGTERM und nach einer Schonfrist SIGKILL.</translation>
    </message>
    <message>
        <source>Stopping %1.</source>
        <translation>%1 wird beendet.</translation>
    </message>
    <message>
        <source>moatd did not stop %1: %2</source>
        <translation>moatd hat %1 nicht beendet: %2</translation>
    </message>
    <message>
        <source>Renew session</source>
        <translation>Sitzung verlängern</translation>
    </message>
    <message>
        <source>Push the expiry of %1 out to this long from now (30m, 8h; empty: its own time to live):</source>
        <translation>Ablauf von %1 auf diese Dauer ab jetzt verschieben (30m, 8h; leer: die eigene Lebensdauer der Sitzung):</translation>
    </message>
    <message>
        <source>moatd did not renew the session: %1</source>
        <translation>moatd hat die Sitzung nicht verlängert: %1</translation>
    </message>
    <message>
        <source>The session now expires at %1.</source>
        <translation>Neuer Ablaufzeitpunkt der Sitzung: %1.</translation>
    </message>
    <message>
        <source>Show p&amp;ast sessions</source>
        <translation>Frühere Sitzungen &amp;anzeigen</translation>
    </message>
    <message>
        <source>Rene&amp;w…</source>
        <translation>&amp;Verlängern…</translation>
    </message>
</context>
<context>
    <name>moat::gui::TerminalRelay</name>
    <message>
        <source>Cannot make a directory for the terminal&apos;s socket in %1: %2. Set XDG_RUNTIME_DIR to a directory of yours that can be written.</source>
        <translation>Für den Socket des Terminals kann in %1 kein Verzeichnis angelegt werden: %2. Setzen Sie XDG_RUNTIME_DIR auf ein beschreibbares Verzeichnis von Ihnen.</translation>
    </message>
    <message>
        <source>The socket path %1 is too long for a unix socket. Set XDG_RUNTIME_DIR (or TMPDIR) to a shorter directory.</source>
        <translation>Der Socket-Pfad %1 ist für einen Unix-Socket zu lang. Setzen Sie XDG_RUNTIME_DIR (oder TMPDIR) auf ein kürzeres Verzeichnis.</translation>
    </message>
    <message>
        <source>Cannot listen on %1: %2</source>
        <translation>Auf %1 kann nicht gelauscht werden: %2</translation>
    </message>
    <message>
        <source>Cannot make %1 private (mode 0600): %2</source>
        <translation>%1 kann nicht privat gemacht werden (Modus 0600): %2</translation>
    </message>
    <message>
        <source>moat-manager refused the connection: this session belongs to another user.</source>
        <translation>moat-manager hat die Verbindung abgelehnt: Diese Sitzung gehört einem anderen Benutzer.</translation>
    </message>
    <message>
        <source>Another terminal took this session over; it goes on there.</source>
        <translation>Ein anderes Terminal hat diese Sitzung übernommen; sie läuft dort weiter.</translation>
    </message>
    <message>
        <source>Cannot lock %1: %2</source>
        <translation>%1 kann nicht gesperrt werden: %2</translation>
    </message>
</context>
<context>
    <name>moat::gui::TimelineModel</name>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>Zusammenfassung</translation>
    </message>
    <message>
        <source>The timeline cannot be read from moatd: %1</source>
        <translation>Die Zeitleiste kann nicht von moatd gelesen werden: %1</translation>
    </message>
</context>
<context>
    <name>moat::gui::UntrustedText</name>
    <message numerus="yes">
        <source>… (%n more characters)</source>
        <translation>
            <numerusform>… (%n weiteres Zeichen)</numerusform>
            <numerusform>… (%n weitere Zeichen)</numerusform>
        </translation>
    </message>
</context>
</TS>

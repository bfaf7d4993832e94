// SPDX-License-Identifier: Apache-2.0
// SpecBuilder and host paths: every one canonical, nothing of moat's own
// state reachable, every unusable path an error that names its flag.
#include "spec_builder_fixture.h"

class SpecBuilderPaths : public SpecBuilderFixture {
    Q_OBJECT

private slots:
    void initTestCase() { prepareTree(); }

    // --- workspace ---------------------------------------------------------

    void defaultWorkspaceIsTheGivenCurrentDirectory()
    {
        RunRequest req = request();
        req.workspace.clear();
        const auto spec = builder().build(req);
        VERIFY_BUILT(spec);
        QCOMPARE(spec->workspace, canonical(at("cwd")));
    }

    void workspaceIsCanonical_data()
    {
        QTest::addColumn<QString>("workspace");
        QTest::addColumn<QString>("expected");

        QTest::newRow("absolute") << at("project") << "project";
        QTest::newRow("relative to the current directory") << "sub" << "cwd/sub";
        QTest::newRow("dot-dot") << "../project" << "project";
        QTest::newRow("trailing slash and dots") << at("project/./") << "project";
        QTest::newRow("through a symlink") << at("link-to-project") << "project";
    }

    void workspaceIsCanonical()
    {
        QFETCH(QString, workspace);
        QFETCH(QString, expected);

        RunRequest req = request();
        req.workspace = workspace.toStdString();
        const auto spec = builder().build(req);
        VERIFY_BUILT(spec);
        QCOMPARE(spec->workspace, canonical(at(expected)));
    }

    void unusableWorkspaceIsRefused_data()
    {
        QTest::addColumn<QString>("workspace");

        QTest::newRow("does not exist") << at("no-such-directory");
        QTest::newRow("the root directory") << "/";
        QTest::newRow("a file") << at("data/file.txt");
        QTest::newRow("moat's state directory") << at("moat/state");
        QTest::newRow("inside moat's state directory") << at("moat/state/sessions/abc");
        QTest::newRow("inside moat's data directory") << at("moat/data/images");
        QTest::newRow("moat's config directory") << at("moat/config");
        QTest::newRow("contains moat's directories") << at("moat");
        QTest::newRow("contains everything") << root_;
        QTest::newRow("symlink into moat's state") << at("link-to-state");
    }

    void unusableWorkspaceIsRefused()
    {
        QFETCH(QString, workspace);

        RunRequest req = request();
        req.workspace = workspace.toStdString();
        const auto spec = builder().build(req);
        VERIFY_FLAG_ERROR(spec, "--workspace");
    }

    // --- --ro / --rw -------------------------------------------------------

    void mountPathsAreCanonical()
    {
        RunRequest req = request();
        req.readOnlyPaths = {"sub", at("link-to-project").toStdString(), at("relative-link-to-data").toStdString()};
        req.readWritePaths = {"../data/inner/", at("data//file.txt").toStdString()};
        const auto spec = builder().build(req);
        VERIFY_BUILT(spec);
        const std::vector<ExtraMount> expected = {{canonical(at("cwd/sub")), true},
                                                  {canonical(at("project")), true},
                                                  {canonical(at("data")), true},
                                                  {canonical(at("data/inner")), false},
                                                  {canonical(at("data/file.txt")), false}};
        QCOMPARE(spec->mounts, expected);
    }

    void duplicateMountsAreMerged()
    {
        RunRequest req = request();
        // One path spelt three ways, read-only.
        req.readOnlyPaths = {at("project").toStdString(), at("link-to-project").toStdString(), "../project/"};
        // Read-only and read-write of one path: read-write wins, once.
        req.readOnlyPaths.push_back(at("data").toStdString());
        req.readWritePaths = {at("relative-link-to-data").toStdString(), at("data").toStdString()};
        const auto spec = builder().build(req);
        VERIFY_BUILT(spec);
        const std::vector<ExtraMount> expected = {{canonical(at("project")), true}, {canonical(at("data")), false}};
        QCOMPARE(spec->mounts, expected);
    }

    void unusableMountIsRefused_data()
    {
        QTest::addColumn<QString>("flag");
        QTest::addColumn<QString>("path");

        for (const QString& flag : {QStringLiteral("--ro"), QStringLiteral("--rw")}) {
            const auto row = [&](const char* name) -> QTestData& {
                return QTest::addRow("%s %s", qPrintable(flag), name) << flag;
            };
            row("empty") << "";
            row("does not exist") << at("no-such-path");
            row("the whole host") << "/";
            row("the whole host, spelt oddly") << "/usr/..";
            row("moat's state directory") << at("moat/state");
            row("inside moat's state directory") << at("moat/state/sessions/abc");
            row("moat's config directory") << at("moat/config");
            row("inside moat's data directory") << at("moat/data/images/img");
            row("contains moat's directories") << at("moat");
            row("contains moat's directories, relative") << "..";
            row("symlink to moat's state") << at("link-to-state");
        }
    }

    void unusableMountIsRefused()
    {
        QFETCH(QString, flag);
        QFETCH(QString, path);

        RunRequest req = request();
        (flag == "--ro" ? req.readOnlyPaths : req.readWritePaths).push_back(path.toStdString());
        const auto spec = builder().build(req);
        QVERIFY(!spec.ok());
        const QString what = QString::fromStdString(spec.error().what);
        QVERIFY2(what.startsWith(flag + ": "), qPrintable(what));
        QVERIFY(!spec.error().hint.empty());
    }

    // moat's directories may not exist yet (a first run creates the state
    // directory only after the spec is built). Their paths must still be
    // compared canonically: a mount of the real directory behind a symlinked
    // HOME must be refused just like a mount of the spelt-out path.
    void moatDirsNotYetCreatedAreStillProtected_data()
    {
        QTest::addColumn<QString>("moatRoot");
        QTest::addColumn<QString>("flag");
        QTest::addColumn<QString>("path");

        QTest::newRow("plain path, --rw") << at("real/fresh") << "--rw" << at("real");
        QTest::newRow("behind a symlink, --rw") << at("alias/fresh") << "--rw" << at("real");
        QTest::newRow("behind a symlink, --ro") << at("alias/fresh") << "--ro" << at("real");
        QTest::newRow("behind a symlink, --workspace") << at("alias/fresh") << "--workspace" << at("real");
        QTest::newRow("with a dot-dot, --rw") << at("data/../real/fresh") << "--rw" << at("real");
    }

    void moatDirsNotYetCreatedAreStillProtected()
    {
        QFETCH(QString, moatRoot);
        QFETCH(QString, flag);
        QFETCH(QString, path);

        const MoatPaths fresh{(moatRoot + "/config/moat").toStdString(), (moatRoot + "/state/moat").toStdString(),
                              (moatRoot + "/data/moat").toStdString(), (moatRoot + "/run").toStdString()};
        QVERIFY(!QFileInfo::exists(moatRoot));
        RunRequest req = request();
        if (flag == "--workspace") {
            req.workspace = path.toStdString();
        } else {
            (flag == "--ro" ? req.readOnlyPaths : req.readWritePaths).push_back(path.toStdString());
        }
        const auto spec = SpecBuilder(fresh, callerEnvironment(), at("cwd").toStdString()).build(req);
        // A moat directory that does not exist yet must still be recognised
        // through a symlink or "..": the supervisor would create the state
        // directory, events.jsonl included, inside a mount the agent can write.
        QVERIFY2(!spec.ok(), qPrintable(flag + " " + path + " accepted although moat's state would be created in it"));
        QVERIFY(QString::fromStdString(spec.error().what).startsWith(flag + ": "));
    }

    // --- --image -------------------------------------------------------------

    void imageIsHostOrRootfs_data()
    {
        QTest::addColumn<QString>("image");
        QTest::addColumn<QString>("rootfs");  // empty: host

        QTest::newRow("host") << "host" << "";
        QTest::newRow("empty means host") << "" << "";
        QTest::newRow("rootfs directory") << at("rootfs") << "rootfs";
        QTest::newRow("relative rootfs directory") << "../rootfs/" << "rootfs";
        QTest::newRow("rootfs through a symlink") << at("link-to-rootfs") << "rootfs";
        QTest::newRow("rootfs in moat's image store") << at("moat/data/images/img") << "moat/data/images/img";
    }

    void imageIsHostOrRootfs()
    {
        QFETCH(QString, image);
        QFETCH(QString, rootfs);

        RunRequest req = request();
        req.image = image.toStdString();
        const auto spec = builder().build(req);
        VERIFY_BUILT(spec);
        if (rootfs.isEmpty()) {
            QCOMPARE(int(spec->image.kind), int(moat::ImageRef::Kind::Host));
            QCOMPARE(spec->image.toString(), std::string("host"));
        } else {
            QCOMPARE(int(spec->image.kind), int(moat::ImageRef::Kind::RootfsDir));
            QCOMPARE(spec->image.path, canonical(at(rootfs)));
            QCOMPARE(spec->image.toString(), canonical(at(rootfs)));
        }
    }

    void junkImageIsRefused_data()
    {
        QTest::addColumn<QString>("image");

        QTest::newRow("does not exist") << at("no-such-image");
        QTest::newRow("name not in a store") << "debian:12";
        QTest::newRow("oci layout") << "oci:/nonexistent";
        QTest::newRow("directory without usr/") << at("rootfs-without-usr");
        QTest::newRow("usr is a file") << at("rootfs-usr-file");
        QTest::newRow("a regular file") << at("data/file.txt");
        QTest::newRow("upper-case HOST") << "HOST";
    }

    void junkImageIsRefused()
    {
        QFETCH(QString, image);

        RunRequest req = request();
        req.image = image.toStdString();
        const auto spec = builder().build(req);
        VERIFY_FLAG_ERROR(spec, "--image");
    }

    // A rootfs image is shown to the sandbox (all but proc, dev, tmp, etc,
    // home, root, run...). One that contains moat's own directories shows
    // them: `moat run --image /` with MOAT_STATE_DIR=/var/lib/moat lets the
    // agent read every session's events.jsonl.
    void imageContainingMoatDirsIsRefused()
    {
        RunRequest req = request();
        req.image = root_.toStdString();  // holds usr/ and moat/{config,state,data}
        const auto spec = builder().build(req);
        VERIFY_FLAG_ERROR(spec, "--image");
    }
};

QTEST_GUILESS_MAIN(SpecBuilderPaths)
#include "tst_spec_builder_paths.moc"

#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""package-registry.py --root DIR --url URL --marker TEXT [--pip NAME]... [--npm NAME]...

Writes tiny packages, made now, into DIR in the layouts that pip and npm
fetch from, for egress-upstream.py --static DIR to serve at URL (e.g.
https://localhost:PORT, no trailing slash). Stdlib only. Each package carries
TEXT, so a test can tell that what a client installed came from here.

  --pip NAME   a pure-Python wheel NAME 1.0 holding the module NAME with '-'
               as '_' (MARKER = TEXT), and a PEP 503 simple index for it:
                 DIR/simple/index.html
                 DIR/simple/NAME/index.html   links the wheel with #sha256=
                 DIR/packages/WHEEL
  --npm NAME   an npm package NAME 1.0.0 (package/package.json with
               "description": TEXT, and package/index.js) and its registry
               document:
                 DIR/NAME/index.json          versions, dist-tags, and dist's
                                              tarball, shasum and integrity
                 DIR/NAME/-/NAME-1.0.0.tgz

NAME is a lower-case name of letters, digits and '-' (already in the form
both registries normalise to). Prints the path of every file it wrote.
"""

import argparse
import base64
import gzip
import hashlib
import html
import io
import json
import os
import re
import sys
import tarfile
import zipfile

NAME = re.compile(r"^[a-z0-9][a-z0-9-]*$")
# Fixed times keep the archives the same from one run to the next.
EPOCH = (1980, 1, 1, 0, 0, 0)


def write(path, content):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as file:
        file.write(content)
    print(path)


def record_hash(content):
    digest = hashlib.sha256(content).digest()
    return "sha256=" + base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def wheel(name, marker):
    """(file name, bytes) of a py3-none-any wheel of NAME 1.0."""
    module = name.replace("-", "_")
    info = "%s-1.0.dist-info" % module
    files = [
        ("%s.py" % module, ("MARKER = %r\n" % marker).encode()),
        (info + "/METADATA", ("Metadata-Version: 2.1\nName: %s\nVersion: 1.0\nSummary: %s\n" %
                              (name, marker)).encode()),
        (info + "/WHEEL", b"Wheel-Version: 1.0\nGenerator: moat package-registry.py\n"
                          b"Root-Is-Purelib: true\nTag: py3-none-any\n"),
    ]
    record = "".join("%s,%s,%d\n" % (path, record_hash(content), len(content)) for path, content in files)
    files.append((info + "/RECORD", (record + info + "/RECORD,,\n").encode()))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path, content in files:
            entry = zipfile.ZipInfo(path, EPOCH)
            entry.external_attr = 0o644 << 16
            archive.writestr(entry, content, zipfile.ZIP_DEFLATED)
    return "%s-1.0-py3-none-any.whl" % module, buffer.getvalue()


def publish_pip(root, name, marker):
    filename, content = wheel(name, marker)
    write(os.path.join(root, "packages", filename), content)
    link = '<a href="/packages/%s#sha256=%s">%s</a>' % (filename, hashlib.sha256(content).hexdigest(), filename)
    write(os.path.join(root, "simple", name, "index.html"),
          ("<!DOCTYPE html>\n<html><body>\n%s\n</body></html>\n" % link).encode())
    projects = sorted(entry for entry in os.listdir(os.path.join(root, "simple"))
                      if os.path.isdir(os.path.join(root, "simple", entry)))
    anchors = "\n".join('<a href="/simple/%s/">%s</a>' % (html.escape(p), html.escape(p)) for p in projects)
    write(os.path.join(root, "simple", "index.html"),
          ("<!DOCTYPE html>\n<html><body>\n%s\n</body></html>\n" % anchors).encode())


def tarball(name, marker):
    """The bytes of NAME-1.0.0.tgz: package/package.json and package/index.js."""
    files = [
        ("package/package.json", json.dumps({"name": name, "version": "1.0.0", "description": marker,
                                             "main": "index.js", "license": "Apache-2.0"}, indent=2).encode()),
        ("package/index.js", ("module.exports = %s;\n" % json.dumps(marker)).encode()),
    ]
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.USTAR_FORMAT) as archive:
        for path, content in files:
            entry = tarfile.TarInfo(path)
            entry.size = len(content)
            entry.mode = 0o644
            entry.mtime = 499162500
            archive.addfile(entry, io.BytesIO(content))
    compressed = io.BytesIO()
    # mtime=0: the same bytes, so the same integrity, every run.
    with gzip.GzipFile(fileobj=compressed, mode="wb", mtime=0) as stream:
        stream.write(raw.getvalue())
    return compressed.getvalue()


def publish_npm(root, url, name, marker):
    content = tarball(name, marker)
    filename = "%s-1.0.0.tgz" % name
    write(os.path.join(root, name, "-", filename), content)
    document = {
        "name": name,
        "description": marker,
        "dist-tags": {"latest": "1.0.0"},
        "versions": {
            "1.0.0": {
                "name": name,
                "version": "1.0.0",
                "description": marker,
                "main": "index.js",
                "license": "Apache-2.0",
                "dist": {
                    "tarball": "%s/%s/-/%s" % (url, name, filename),
                    "shasum": hashlib.sha1(content).hexdigest(),
                    "integrity": "sha512-" + base64.b64encode(hashlib.sha512(content).digest()).decode(),
                },
            },
        },
    }
    write(os.path.join(root, name, "index.json"), (json.dumps(document, indent=2) + "\n").encode())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True)
    parser.add_argument("--url", required=True)
    parser.add_argument("--marker", required=True)
    parser.add_argument("--pip", action="append", default=[])
    parser.add_argument("--npm", action="append", default=[])
    arguments = parser.parse_args()
    for name in arguments.pip + arguments.npm:
        if not NAME.match(name):
            sys.exit("package-registry.py: not a plain lower-case name: %r" % name)
    url = arguments.url.rstrip("/")
    for name in arguments.pip:
        publish_pip(arguments.root, name, arguments.marker)
    for name in arguments.npm:
        publish_npm(arguments.root, url, name, arguments.marker)


if __name__ == "__main__":
    main()

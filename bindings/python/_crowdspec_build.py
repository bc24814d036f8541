# SPDX-License-Identifier: MIT
"""PEP 517 build backend of the crowdspec package: setuptools.build_meta, offline.

`pip install bindings/python` builds in an isolated environment and would download
setuptools and wheel from an index. Where none is reachable (Debian with PEP 668, an
offline machine) this backend uses the interpreter's own setuptools (Debian's
python3-setuptools) instead, re-adding its site-packages that the isolation hid.
When the `wheel` package is missing too (setuptools < 70.1 needs it for bdist_wheel),
the package, which is pure Python plus an optional bundled libcrowdspec, is zipped
into a wheel here.
"""

import base64
import hashlib
import os
import re
import site
import sys
import sysconfig
import tarfile
import zipfile

_HERE = os.path.dirname(os.path.abspath(__file__))


def _import_setuptools():
    try:
        import setuptools.build_meta as backend
        import wheel  # noqa: F401  (bdist_wheel of setuptools < 70.1)
        return backend
    except ImportError:
        pass
    for path in site.getsitepackages():
        if path not in sys.path:
            sys.path.append(path)  # last: the isolated environment's own come first
    try:
        import setuptools.build_meta as backend
        import wheel  # noqa: F401
        return backend
    except ImportError:
        return None


_setuptools = _import_setuptools()


# ----------------------------------------------------------------------------------
# Fallback: a wheel and an sdist without setuptools' bdist_wheel


def _project():
    with open(os.path.join(_HERE, "pyproject.toml"), "rb") as f:
        text = f.read().decode("utf-8")
    try:
        import tomllib
        return tomllib.loads(text)["project"]
    except ImportError:  # Python < 3.11: the few fields used below
        fields = dict(re.findall(r'^(name|version|description|requires-python)\s*=\s*"([^"]*)"',
                                 text, re.M))
        fields["dependencies"] = re.findall(r'"([^"]+)"', re.search(
            r"^dependencies\s*=\s*\[([^\]]*)\]", text, re.M).group(1))
        return fields


def _metadata():
    p = _project()
    lines = ["Metadata-Version: 2.1", "Name: %s" % p["name"], "Version: %s" % p["version"],
             "Summary: %s" % p.get("description", ""), "License: MIT"]
    if p.get("requires-python"):
        lines.append("Requires-Python: %s" % p["requires-python"])
    for dep in p.get("dependencies", []):
        lines.append("Requires-Dist: %s" % dep)
    for extra, deps in (p.get("optional-dependencies") or {}).items():
        lines.append("Provides-Extra: %s" % extra)
        for dep in deps:
            lines.append('Requires-Dist: %s; extra == "%s"' % (dep, extra))
    body = ""
    readme = os.path.join(_HERE, "README.md")
    if os.path.exists(readme):
        lines.append("Description-Content-Type: text/markdown")
        with open(readme, encoding="utf-8") as f:
            body = "\n" + f.read()
    return p["name"], p["version"], "\n".join(lines) + "\n" + body


def _package_files():
    root = os.path.join(_HERE, "crowdspec")
    out = []
    for name in sorted(os.listdir(root)):
        if name.endswith(".py") or name.startswith(("libcrowdspec", "crowdspec")) and \
                (".so" in name or name.endswith((".dylib", ".dll"))):
            out.append(("crowdspec/" + name, os.path.join(root, name)))
    return out


def _tag(files):
    if any(not arc.endswith(".py") for arc, _ in files):
        platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
        return "py3-none-" + platform, "false"
    return "py3-none-any", "true"


def _record_line(arcname, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return "%s,sha256=%s,%d" % (arcname, digest, len(data))


def _build_wheel(wheel_directory):
    name, version, metadata = _metadata()
    files = _package_files()
    tag, purelib = _tag(files)
    dist_info = "%s-%s.dist-info" % (name, version)
    filename = "%s-%s-%s.whl" % (name, version, tag)
    records = []
    with zipfile.ZipFile(os.path.join(wheel_directory, filename), "w",
                         zipfile.ZIP_DEFLATED) as zf:
        def add(arcname, data):
            zf.writestr(arcname, data)
            records.append(_record_line(arcname, data))
        for arcname, path in files:
            with open(path, "rb") as f:
                add(arcname, f.read())
        add(dist_info + "/METADATA", metadata.encode("utf-8"))
        add(dist_info + "/WHEEL", ("Wheel-Version: 1.0\nGenerator: _crowdspec_build\n"
                                   "Root-Is-Purelib: %s\nTag: %s\n" % (purelib, tag)).encode())
        add(dist_info + "/top_level.txt", b"crowdspec\n")
        records.append(dist_info + "/RECORD,,")
        zf.writestr(dist_info + "/RECORD", "\n".join(records) + "\n")
    return filename


def _build_sdist(sdist_directory):
    name, version, metadata = _metadata()
    base = "%s-%s" % (name, version)
    filename = base + ".tar.gz"
    members = ["pyproject.toml", "_crowdspec_build.py", "README.md"]
    with tarfile.open(os.path.join(sdist_directory, filename), "w:gz") as tar:
        for rel in members:
            path = os.path.join(_HERE, rel)
            if os.path.exists(path):
                tar.add(path, arcname=base + "/" + rel)
        for arcname, path in _package_files():
            tar.add(path, arcname=base + "/" + arcname)
        for rel in sorted(os.listdir(os.path.join(_HERE, "tests"))):
            if rel.endswith(".py"):
                tar.add(os.path.join(_HERE, "tests", rel), arcname=base + "/tests/" + rel)
        info = tarfile.TarInfo(base + "/PKG-INFO")
        data = metadata.encode("utf-8")
        info.size = len(data)
        import io
        tar.addfile(info, io.BytesIO(data))
    return filename


# ----------------------------------------------------------------------------------
# The PEP 517 hooks


def get_requires_for_build_wheel(config_settings=None):
    # Everything needed is already importable (or not needed by the fallback): asking
    # pip for setuptools' "wheel" requirement would make it go to an index.
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    if _setuptools is not None:
        return _setuptools.build_wheel(wheel_directory, config_settings, metadata_directory)
    return _build_wheel(wheel_directory)


def build_sdist(sdist_directory, config_settings=None):
    if _setuptools is not None:
        return _setuptools.build_sdist(sdist_directory, config_settings)
    return _build_sdist(sdist_directory)

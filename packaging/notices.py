#!/usr/bin/env python3
"""Writes NOTICES: the license of everything compiled into a SwiftPM product (issue 40).

Which packages are in the binary is read from the link itself, not from a list kept by hand:
the object files SwiftPM linked (BIN/PRODUCT.product/Objects.LinkFileList), each traced to its
sources (a Swift module's output-file-map.json, a C module's .d files) and so to its package
under .build/checkouts. For each package: its version and address (from `swift package
show-dependencies --format json`), its LICENSE and NOTICE files, and any license file in the
folder of a module that was linked (swift-nio's vendored llhttp). Then the Swift runtime and
Foundation, linked statically. Packages the graph holds but the product does not link (test and
build-tool dependencies) are named at the end.

Usage: notices.py BIN_PATH PRODUCT PROJECT_ROOT DEPENDENCIES_JSON SWIFT_LICENSE OUT
"""
import json
import pathlib
import re
import shlex
import sys

LICENSE_NAMES = re.compile(r"^(LICEN[CS]E|COPYING)(\.(txt|md))?$", re.IGNORECASE)
NOTICE_NAMES = re.compile(r"^NOTICE(\.(txt|md))?$", re.IGNORECASE)


def linked_module_folders(bin_path: pathlib.Path, product: str) -> list[pathlib.Path]:
    """The `NAME.build` folders whose objects the product's link took."""
    link_list = bin_path / f"{product}.product" / "Objects.LinkFileList"
    folders = []
    for line in link_list.read_text().splitlines():
        for word in shlex.split(line):
            folder = pathlib.Path(word).parent
            if folder.name.endswith(".build") and folder not in folders:
                folders.append(folder)
    return folders


def module_sources(folder: pathlib.Path) -> list[str]:
    """The source files a module folder was compiled from."""
    sources = []
    output_map = folder / "output-file-map.json"
    if output_map.exists():
        sources += [key for key in json.loads(output_map.read_text()) if key]
    for dependencies in folder.glob("*.d"):
        # A C object's first dependency is its own source file.
        words = dependencies.read_text().replace("\\\n", " ").split()
        if len(words) > 1:
            sources.append(words[1])
    return sources


def package_of(source: str, checkouts: pathlib.Path) -> tuple[str, pathlib.Path] | None:
    """(checkout folder name, module folder) of a source under .build/checkouts, else None."""
    path = pathlib.Path(source)
    try:
        relative = path.relative_to(checkouts)
    except ValueError:
        return None  # the project's own sources, or a build plugin's output
    package = relative.parts[0]
    # The module's folder: Sources/NAME (or the folder that holds the file, for other layouts).
    parts = relative.parts
    module = checkouts.joinpath(*parts[:3]) if len(parts) > 3 and parts[1] == "Sources" else path.parent
    return package, module


def dependency_table(graph: dict) -> dict[str, dict]:
    """Checkout folder name → {identity, version, url} of every package in the graph."""
    table = {}

    def walk(node):
        for child in node.get("dependencies", []):
            table[pathlib.Path(child["path"]).name] = child
            walk(child)

    walk(graph)
    return table


def files_matching(folder: pathlib.Path, pattern: re.Pattern) -> list[pathlib.Path]:
    return sorted(p for p in folder.iterdir() if p.is_file() and pattern.match(p.name))


def main() -> None:
    bin_path, product, root, graph_file, swift_license, out = sys.argv[1:7]
    bin_path, root = pathlib.Path(bin_path), pathlib.Path(root)
    checkouts = (root / ".build" / "checkouts").resolve()
    table = dependency_table(json.loads(pathlib.Path(graph_file).read_text()))

    linked: dict[str, set[pathlib.Path]] = {}
    for folder in linked_module_folders(bin_path, product):
        for source in module_sources(folder):
            found = package_of(str(pathlib.Path(source).resolve()), checkouts)
            if found:
                linked.setdefault(found[0], set()).add(found[1])
    unknown = sorted(set(linked) - set(table))
    if unknown:
        sys.exit(f"notices.py: linked packages missing from the dependency graph: {unknown}")

    text = [
        f"Third-party software in {product}",
        "",
        f"{product} is built with these libraries compiled into it. Each one's license and notice",
        "files follow, as its authors ship them. The shared libraries it loads from the system",
        "(libc, SQLite, libcurl, zlib, libstdc++) come with their own packages' notices",
        "(on Debian: /usr/share/doc/PACKAGE/copyright).",
        "",
    ]
    for name in sorted(linked, key=str.lower):
        info = table[name]
        text.append(f"- {info['name']} {info['version']} ({info['url']})")
    text.append("- The Swift runtime, standard library, Foundation and Dispatch (swift.org)")
    text.append("")

    rule = "=" * 78
    for name in sorted(linked, key=str.lower):
        info, folder = table[name], checkouts / name
        files = files_matching(folder, LICENSE_NAMES) + files_matching(folder, NOTICE_NAMES)
        for module in sorted(linked[name]):
            if module.is_dir():
                files += [p for p in files_matching(module, LICENSE_NAMES) if p not in files]
        if not any(LICENSE_NAMES.match(p.name) for p in files):
            sys.exit(f"notices.py: no license file in {folder}")
        for file in files:
            text += [rule, f"{info['name']} {info['version']} — {file.relative_to(checkouts)}", rule, ""]
            text += [file.read_text(errors="replace").rstrip(), ""]

    text += [
        rule,
        "The Swift runtime, standard library, Foundation and Dispatch — linked statically",
        "(swift build --static-swift-stdlib); the Swift toolchain's own license file follows.",
        "Foundation on Linux includes swift-foundation-icu, a build of ICU (International",
        "Components for Unicode, Copyright Unicode, Inc. and others) under the Unicode License;",
        "its text is not shipped with the toolchain: https://github.com/swiftlang/swift-foundation-icu",
        rule,
        "",
        pathlib.Path(swift_license).read_text().rstrip(),
        "",
    ]
    unlinked = sorted(set(table) - set(linked), key=str.lower)
    if unlinked:
        text += [
            rule,
            "Packages the build resolves but does not link into the program (tests, build tools,",
            "products not used): " + ", ".join(table[name]["name"] for name in unlinked) + ".",
            "",
        ]
    pathlib.Path(out).write_text("\n".join(text))
    for name in sorted(linked, key=str.lower):
        print(f"{table[name]['name']} {table[name]['version']}")


if __name__ == "__main__":
    main()

"""The package's layers hold: read from the source, every import of every module is checked.

Layers, bottom to top: the foundation modules (``arrays``, ``errors``, ``ranges``, ``text``),
``poker`` (pure evaluation), ``games``, ``hands`` (the facts of recorded hands), ``formats``, ``runs``,
and the command line.  A module imports only from its own layer or below, never a private name of
another module, and the imports (in-function ones included) form no cycle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from .conftest import ROOT

PACKAGE = ROOT / "pipeline"
LAYERS = {"pipeline.arrays": 0, "pipeline.errors": 0, "pipeline.ranges": 0, "pipeline.text": 0,
          "pipeline.poker": 1, "pipeline.games": 2, "pipeline.hands": 3, "pipeline.formats": 4,
          "pipeline.runs": 5, "pipeline.cli": 6, "pipeline.console": 6, "pipeline.__main__": 6,
          "pipeline": 6}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def layer(module: str) -> int:
    """The layer of a module: that of the longest prefix named in LAYERS."""
    parts = module.split(".")
    for end in range(len(parts), 0, -1):
        prefix = ".".join(parts[:end])
        if prefix in LAYERS:
            return LAYERS[prefix]
    raise AssertionError(f"{module} is in no layer: add its package to LAYERS")


def imports_of(module: str) -> dict[str, list[str]]:
    """Every package module ``module`` imports (anywhere in its body) -> the names it takes from it."""
    found: dict[str, list[str]] = {}
    for node in ast.walk(ast.parse(MODULES[module].read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in MODULES:
                    found.setdefault(alias.name, [])
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module not in MODULES:
                continue
            for alias in node.names:
                submodule = f"{node.module}.{alias.name}"
                if submodule in MODULES:
                    found.setdefault(submodule, [])
                else:
                    found.setdefault(node.module, []).append(alias.name)
    found.pop(module, None)
    return found


GRAPH = {module: imports_of(module) for module in MODULES}


def test_every_module_is_in_a_layer_and_says_so():
    for module, path in MODULES.items():
        layer(module)
        docstring = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        if module != "pipeline.__main__":
            assert docstring, f"{module} has no docstring saying what it owns"
        if module.count(".") == 2:  # a module inside a layer's folder names its layer
            assert "Layer" in docstring, f"{module}'s docstring does not name its layer"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_a_module_imports_only_its_own_layer_or_below(module):
    above = {target: layer(target) for target in GRAPH[module] if layer(target) > layer(module)}
    assert not above, f"{module} (layer {layer(module)}) imports from above: {above}"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_private_name_crosses_a_module_boundary(module):
    taken = [f"{target}.{name}" for target, names in GRAPH[module].items() for name in names
             if name.startswith("_") and not name.startswith("__")]
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    aliases = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                if f"{node.module}.{alias.name}" in MODULES:
                    aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in MODULES and alias.asname:
                    aliases[alias.asname] = alias.name
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases
                and node.attr.startswith("_") and not node.attr.startswith("__")):
            taken.append(f"{aliases[node.value.id]}.{node.attr} (line {node.lineno})")
    assert not taken, f"{module} uses private names of other modules: {taken}"


def test_the_imports_form_no_cycle():
    # Depth-first search with three colours: a grey module met again closes a cycle.
    colour = dict.fromkeys(GRAPH, "white")
    path: list[str] = []

    def visit(module: str) -> None:
        colour[module] = "grey"
        path.append(module)
        for target in GRAPH[module]:
            if colour[target] == "grey":
                cycle = path[path.index(target):] + [target]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if colour[target] == "white":
                visit(target)
        path.pop()
        colour[module] = "black"

    for module in GRAPH:
        if colour[module] == "white":
            visit(module)


def test_the_checks_see_real_imports():
    # The checks above pass vacuously if the graph is empty or misses in-function imports.
    assert GRAPH["pipeline.games.holdem"].keys() >= {"pipeline.poker.holdem", "pipeline.games.board"}
    assert "pipeline.runs.cluster" in GRAPH["pipeline.cli"]  # imported inside a function
    assert layer("pipeline.poker.cards") < layer("pipeline.games.base") < layer("pipeline.formats.phh") \
        < layer("pipeline.runs.runner") < layer("pipeline.cli")


def test_a_site_is_named_only_in_its_own_module():
    """A further site's logs are one new module of pipeline.formats.sites that touches nothing
    else: no other module imports a site's module or writes a site's name (docstrings apart)."""
    from pipeline.formats import sites

    names = {value for site in sites.SITES for value in (site.name, site.venue)}
    assert "pokerstars" in names
    for module, path in MODULES.items():
        if module.startswith("pipeline.formats.sites."):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                      and node.body and isinstance(node.body[0], ast.Expr)
                      and isinstance(node.body[0].value, ast.Constant)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                assert node.value not in names, f"{module} names the site {node.value!r}"
            if isinstance(node, ast.ImportFrom) and node.module:
                imported = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
                assert not any(name.startswith("pipeline.formats.sites.") for name in imported), \
                    f"{module} imports a site's module"

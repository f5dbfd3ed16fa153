"""The house rules of the package's layout: no import loops, and the rules
core, the engine and the formats load with the standard library and
``kjxqz`` alone (the full-screen game's Textual is loaded only by it).
Modules are split by concept, never by size: there is no line limit."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

PACKAGE = ROOT / "src" / "tilebag"


def module_name(path: Path) -> str:
    parts = ["tilebag", *path.relative_to(PACKAGE).with_suffix("").parts]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def imported(name: str, path: Path, known: set[str]) -> set[str]:
    """The package's modules that ``name`` imports anywhere in its code (in
    functions too), except under ``if TYPE_CHECKING:``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def add(target: str) -> None:
        while target and target not in known:
            target = target.rpartition(".")[0]
        if target and target != name:
            found.add(target)

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for other in child.orelse:
                    visit(other)
                continue
            if isinstance(child, ast.Import):
                for alias in child.names:
                    add(alias.name)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    anchor = package
                    for _ in range(child.level - 1):
                        anchor = anchor.rpartition(".")[0]
                    base = f"{anchor}.{base}" if base else anchor
                for alias in child.names:
                    full = f"{base}.{alias.name}"
                    add(full if full in known else base)
            visit(child)

    visit(tree)
    return found


def loops(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for v in sorted(graph):
        if v not in index:
            strong(v)
    return found


def import_graph() -> dict[str, set[str]]:
    """Who imports whom. A package's ``__init__`` importing its own modules
    (to offer their names) is left out: that is not a loop between parts."""
    known = modules()
    names = set(known)
    graph = {}
    for name, path in known.items():
        found = imported(name, path, names)
        if path.name == "__init__.py":
            found = {other for other in found if not other.startswith(name + ".")}
        graph[name] = found
    return graph


def test_the_walker_finds_a_loop() -> None:
    assert loops({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert loops({"a": {"b"}, "b": set()}) == []


def test_the_package_has_no_import_loop() -> None:
    graph = import_graph()
    assert len(graph) > 30
    assert loops(graph) == []


def private_names_taken() -> list[str]:
    """Each ``from tilebag.M import _name`` of another module's private name
    (a private module, such as the compiled core, is not a name)."""
    known = modules()
    taken = []
    for name, path in known.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom) or node.level or node.module not in known or node.module == name:
                continue
            folder = PACKAGE.joinpath(*node.module.split(".")[1:])
            for alias in node.names:
                is_module = f"{node.module}.{alias.name}" in known or any(folder.glob(f"{alias.name}.*"))
                if alias.name.startswith("_") and not alias.name.startswith("__") and not is_module:
                    taken.append(f"{name} takes {node.module}.{alias.name}")
    return taken


def test_no_module_takes_another_modules_private_names() -> None:
    """A module that reaches into another's private names is one concept
    cut in two (or a helper that wants a public name)."""
    assert private_names_taken() == []


@pytest.mark.parametrize(
    "imports",
    [
        "tilebag",
        "tilebag.game, tilebag.table, tilebag.formats.replay, tilebag.formats.gcg, tilebag.formats.cgp",
        "tilebag.engine.bots, tilebag.engine.analysis.review, tilebag.engine.coaching.coach, "
        "tilebag.engine.movegen.generator",
        "tilebag.ui.cli, tilebag.ui.session, tilebag.ui.play",
    ],
)
def test_the_core_the_engine_and_the_line_game_do_not_load_textual(imports: str) -> None:
    code = (
        f"import sys, {imports}; "
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'textual', 'rich', 'fastapi', 'sqlalchemy', 'uvicorn'}))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_without_textual_the_game_is_played_in_lines(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from tilebag.ui import play
    from tilebag.ui.cli import build_parser

    monkeypatch.setattr(play, "full_screen_available", lambda: False)
    args = build_parser().parse_args(["play", "alice", "bob", "--full-screen"])
    assert play.main(args) == 2
    assert "pip install 'tilebag[full-screen]'" in capsys.readouterr().err


def reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = [start]
    while todo:
        for other in graph.get(todo.pop(), ()):
            if other not in seen:
                seen.add(other)
                todo.append(other)
    return seen


@pytest.mark.parametrize("module", ["tilebag.game", "tilebag.formats.replay", "tilebag.engine", "tilebag.position"])
def test_the_game_and_the_replay_do_not_depend_on_a_file_format(module: str) -> None:
    """A record's rules and clocks are typed fields: only the GCG module
    turns them into text, so the game, the replay and the engine never
    reach it (nor any of the user interfaces)."""
    found = reachable(import_graph(), module)
    assert "tilebag.formats.gcg" not in found
    assert not any(name.startswith(("tilebag.ui", "tilebag.server")) for name in found)


CORE = ("tilebag", "tilebag.actions", "tilebag.game", "tilebag.table", "tilebag.view", "tilebag.position", "tilebag.record")
"""The core's modules that front ends build on: the game, the table, what a seat may see."""


@pytest.mark.parametrize("module", CORE)
def test_the_core_loads_none_of_the_wings(module: str) -> None:
    """The core imports nothing from the engine, the formats, the user
    interfaces or the server when it loads (a bot is whatever has a name and
    a choose method; the engine is loaded where a game first asks for it)."""
    code = (
        f"import sys, importlib; importlib.import_module({module!r}); "
        "print(sorted(m for m in sys.modules if m.startswith(('tilebag.engine', 'tilebag.formats', 'tilebag.ui', "
        "'tilebag.server', 'tilebag.batch', 'tilebag.events'))))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_the_server_imports_nothing_of_the_terminal_game() -> None:
    graph = import_graph()
    for name in graph:
        if name.startswith("tilebag.server"):
            assert not any(other.startswith("tilebag.ui") for other in graph[name]), name


def inside(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def test_only_the_lab_and_the_commands_import_the_lab() -> None:
    """The lab's tools (matches, self-play, training, benchmarks) stand on
    the library, and nothing of the library stands on them: only the lab
    itself and the ``tilebag`` command (``tilebag.ui``) import ``tilebag.lab``."""
    graph = import_graph()
    assert "tilebag.lab.match" in graph and "tilebag.lab.serve_bench" in graph
    for name, imports in graph.items():
        if not (inside(name, "tilebag.lab") or inside(name, "tilebag.ui")):
            assert not any(inside(other, "tilebag.lab") for other in imports), name

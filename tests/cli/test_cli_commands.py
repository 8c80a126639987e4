"""The `placeborag` command line: demo, explain, seed, check; --help; clean bad-input exits."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from placeborag_core.cli import PROGRESS_THRESHOLD, main
from placeborag_core.corpus.manifest import Manifest

DOCS = [
    {"id": "refunds", "text": "Refunds are paid within five business days.", "namespace": "acme"},
    {"id": "returns", "text": "Returns must be posted within thirty days.", "namespace": "acme"},
    {"id": "shipping", "text": "Parcels ship every weekday.", "namespace": "globex"},
]


def _write_docs(path: Path, docs: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(doc) + "\n" for doc in docs), encoding="utf-8")
    return path


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    return _write_docs(tmp_path / "docs.jsonl", DOCS)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("command", [[], ["demo"], ["explain"], ["seed"], ["check"]])
def test_help_everywhere(capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    code, out, _ = _run(capsys, *command, "--help")
    assert code == 0
    assert out.startswith("usage: placeborag")


def test_no_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys)
    assert code == 2
    assert "the following arguments are required: COMMAND" in err


def test_demo_prints_its_tables(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "demo")
    assert (code, err) == (0, "")
    for heading in (
        "== Pre- vs post-filtering ==",
        "== Score conventions per profile ==",
        "== Declared faults ==",
        "== Idempotent seeding and the drift check ==",
        "== Framework adapters ==",
    ):
        assert heading in out
    pre = next(line for line in out.splitlines() if line.startswith("pre "))
    post = next(line for line in out.splitlines() if line.startswith("post "))
    assert pre.split()[1] == "2"
    assert post.split()[1:] == ["0", "(nothing)"]
    assert "RetrievalTimeout raised" in out
    assert "vector_digest differs in namespace 'acme'" in out
    assert "None" not in out


def test_explain_uses_the_given_embedder(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "explain", "refund policy", "our refund policy")
    assert code == 0
    assert out.startswith("cosine(")
    _, small, _ = _run(
        capsys, "explain", "refund policy", "our refund policy", "--dimensions", "16"
    )
    assert small != out


def test_explain_rejects_bad_embedder_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "explain", "a", "b", "--dimensions", "0")
    assert (code, out) == (2, "")
    assert err.startswith("placeborag: error: invalid embedder options:")
    assert len(err.splitlines()) == 1


def test_seed_writes_a_manifest_and_check_passes(
    capsys: pytest.CaptureFixture[str], docs: Path, tmp_path: Path
) -> None:
    manifest = tmp_path / "manifest.json"
    code, out, err = _run(
        capsys, "seed", str(docs), "--manifest", str(manifest), "--seed-version", "7"
    )
    assert (code, err) == (0, "")
    assert "namespace 'acme': 2 chunks" in out
    loaded = Manifest.load(manifest)
    assert loaded.seed_version == "7"
    assert sorted(loaded.namespaces) == ["acme", "globex"]
    code, out, _ = _run(capsys, "check", str(docs), str(manifest))
    assert code == 0
    assert "no drift (2 namespaces)" in out


def test_check_exits_1_naming_the_digest(
    capsys: pytest.CaptureFixture[str], docs: Path, tmp_path: Path
) -> None:
    manifest = tmp_path / "manifest.json"
    assert main(["seed", str(docs), "--manifest", str(manifest)]) == 0
    capsys.readouterr()
    code, out, _ = _run(capsys, "check", str(docs), str(manifest), "--model-name", "other")
    assert code == 1
    assert "embedding.salt_id differs" in out
    assert "vector_digest differs in namespace 'acme'" in out
    edited = _write_docs(tmp_path / "edited.jsonl", DOCS[:2])
    code, out, _ = _run(capsys, "check", str(edited), str(manifest))
    assert code == 1
    assert "tenant_set_digest differs" in out
    code, out, _ = _run(capsys, "check", str(docs), str(manifest), "--chunk-size", "3")
    assert code == 1
    assert "chunk_ids_digest differs in namespace 'acme'" in out


def test_seed_without_ids(capsys: pytest.CaptureFixture[str], docs: Path, tmp_path: Path) -> None:
    manifest = tmp_path / "manifest.json"
    assert main(["seed", str(docs), "--manifest", str(manifest), "--no-ids"]) == 0
    entries = json.loads(manifest.read_text(encoding="utf-8"))["namespaces"]
    assert entries["acme"]["chunk_count"] == 2
    assert all("chunk_ids" not in entry for entry in entries.values())


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('{"id": "a", "text": "x"}\n{"id": "b", "text": }\n', "docs.jsonl:2: invalid JSON"),
        ('{"id": "a"}\n', "docs.jsonl:1: 'text' must be a string, got NoneType"),
        ('{"id": "a", "text": "x"}\n{"id": "a", "text": "y"}\n', "docs.jsonl:2: document id 'a'"),
        (
            '{"id": "a", "text": "x", "metadata": {"n": NaN}}\n',
            "docs.jsonl:1: cannot read the JSON (NaN is not JSON",
        ),
    ],
)
def test_bad_docs_one_line_exit_2_nothing_written(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str, expected: str
) -> None:
    docs = tmp_path / "docs.jsonl"
    docs.write_text(content, encoding="utf-8")
    manifest = tmp_path / "manifest.json"
    code, out, err = _run(capsys, "seed", str(docs), "--manifest", str(manifest))
    assert (code, out) == (2, "")
    assert len(err.splitlines()) == 1
    assert err.startswith("placeborag: error: ")
    assert expected in err
    assert not manifest.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["docs.jsonl"]


def test_existing_manifest_is_untouched_on_bad_input(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, docs: Path
) -> None:
    manifest = tmp_path / "manifest.json"
    assert main(["seed", str(docs), "--manifest", str(manifest)]) == 0
    before = manifest.read_text(encoding="utf-8")
    broken = tmp_path / "broken.jsonl"
    broken.write_text("{\n", encoding="utf-8")
    assert main(["seed", str(broken), "--manifest", str(manifest)]) == 2
    assert manifest.read_text(encoding="utf-8") == before


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (
            ["seed", "{tmp}/missing.jsonl", "--manifest", "{tmp}/m.json"],
            "missing.jsonl: cannot read",
        ),
        (["seed", "{docs}", "--manifest", "{tmp}/no/such/dir/m.json"], "does not exist"),
        (["seed", "{docs}", "--manifest", "{tmp}"], "cannot write: is a directory"),
        (["seed", "{docs}", "--manifest", "{tmp}/m.json", "--chunk-size", "0"], "invalid chunker"),
        (["check", "{docs}", "{tmp}/missing.json"], "missing.json: cannot read"),
        (["check", "{docs}", "{docs}"], "docs.jsonl:2: manifest is not valid JSON"),
    ],
)
def test_bad_paths_and_options_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, docs: Path, argv: list[str], expected: str
) -> None:
    filled = [arg.format(tmp=tmp_path, docs=docs) for arg in argv]
    code, out, err = _run(capsys, *filled)
    assert (code, out) == (2, "")
    assert len(err.splitlines()) == 1
    assert expected in err


def test_progress_is_shown_on_stderr_for_large_inputs(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    many = [{"id": f"d{i}", "text": f"document {i}"} for i in range(PROGRESS_THRESHOLD)]
    docs = _write_docs(tmp_path / "many.jsonl", many)
    code, out, err = _run(capsys, "seed", str(docs), "--manifest", str(tmp_path / "m.json"))
    assert code == 0
    assert (
        f"placeborag: namespace '': {PROGRESS_THRESHOLD}/{PROGRESS_THRESHOLD} chunks embedded"
        in err
    )
    assert "chunks embedded" not in out
    small = _write_docs(tmp_path / "small.jsonl", many[:10])
    _, _, quiet = _run(capsys, "seed", str(small), "--manifest", str(tmp_path / "m.json"))
    assert quiet == ""


def test_python_dash_m_runs_the_same_cli() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "placeborag_core", "--help"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0
    assert "seed a store from DOCS.jsonl and write its manifest" in result.stdout


_WITHOUT_FRAMEWORKS = """
import sys
from importlib.abc import MetaPathFinder

class Block(MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("langchain_core", "llama_index"):
            raise ModuleNotFoundError(f"No module named {name!r}")
        return None

sys.meta_path.insert(0, Block())
from placeborag_core.cli import main
code = main(["demo"])
loaded = sorted(m for m in sys.modules if m.startswith(("langchain", "llama_index")))
print("LOADED", loaded)
raise SystemExit(code)
"""


def test_demo_runs_with_only_the_core_installed() -> None:
    result = subprocess.run(
        [sys.executable, "-c", _WITHOUT_FRAMEWORKS],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "LangChain   not installed  pip install 'placeborag[langchain]'" in result.stdout
    assert "LlamaIndex  not installed  pip install 'placeborag[llamaindex]'" in result.stdout
    assert "LOADED []" in result.stdout
    assert "== Pre- vs post-filtering ==" in result.stdout


def test_demo_shows_the_installed_adapters(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("langchain_core")
    pytest.importorskip("llama_index.core")
    _, out, _ = _run(capsys, "demo")
    assert "LangChain   PlaceboVectorStore(profile='chroma')" in out
    assert "LlamaIndex  PlaceboVectorStore(profile='chroma')" in out


@pytest.mark.parametrize("umask", [0o022, 0o077, 0o002])
def test_seed_gives_a_new_manifest_the_umasks_mode(docs: Path, tmp_path: Path, umask: int) -> None:
    manifest = tmp_path / "seed-manifest.json"
    previous = os.umask(umask)
    try:
        assert main(["seed", str(docs), "--manifest", str(manifest)]) == 0
    finally:
        os.umask(previous)
    assert stat.S_IMODE(manifest.stat().st_mode) == 0o666 & ~umask


def test_seed_keeps_the_mode_of_the_manifest_it_replaces(docs: Path, tmp_path: Path) -> None:
    manifest = tmp_path / "seed-manifest.json"
    manifest.write_text("{}")
    manifest.chmod(0o640)
    assert main(["seed", str(docs), "--manifest", str(manifest)]) == 0
    assert stat.S_IMODE(manifest.stat().st_mode) == 0o640
    assert Manifest.load(manifest).namespaces


def test_a_reader_that_leaves_early_stops_the_output_quietly() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "placeborag_core", "demo"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None
    assert process.stderr is not None
    process.stdout.read(10)
    process.stdout.close()  # as `placeborag demo | head -c 10` does
    error = process.stderr.read().decode()
    process.stderr.close()
    assert process.wait() == 141
    assert error == ""

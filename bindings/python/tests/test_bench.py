"""`python -m zkgpu bench` once, tiny, for every operation (real numbers come from the GPU machine)."""

import json
import subprocess
import sys

import pytest

from zkgpu import _bench


@pytest.mark.parametrize("op", _bench.OPS)
def test_bench_smoke(op, capsys):
    assert _bench.main([op, "--sizes", "1,3", "--backend", "cpu", "--min-time", "0.001", "--rounds", "1", "--no-bar", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["items"] for r in rows] == [1, 3]
    for r in rows:
        assert r["python_s"] > 0 and r["cpp_s"] > 0 and r["backend"] == "cpu"


def test_ed25519_message_rows(capsys):
    assert _bench.main(["ed25519", "--sizes", "5", "--backend", "cpu", "--min-time", "0.001", "--rounds", "1",
                        "--no-bar", "--json", "--messages", "rows"]) == 0
    (row,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert row["items"] == 5 and row["python_s"] > 0


def test_table_and_module_entry_point():
    out = subprocess.run([sys.executable, "-m", "zkgpu", "bench", "ntt", "--sizes", "4", "--backend", "cpu",
                          "--min-time", "0.001", "--no-bar"], capture_output=True, text=True, check=True).stdout
    assert "python ms" in out and "overhead" in out
    info = subprocess.run([sys.executable, "-m", "zkgpu", "info"], capture_output=True, text=True, check=True).stdout
    assert json.loads(info)["version"]


def test_plot(tmp_path, monkeypatch):
    path = tmp_path / "curve.png"
    try:
        import matplotlib  # noqa: F401  (present: draw; absent: the message)
    except ImportError:
        with pytest.raises(SystemExit, match="matplotlib"):
            _bench.main(["ntt", "--sizes", "4", "--min-time", "0.001", "--plot", str(path)])
        return
    assert _bench.main(["ntt", "--sizes", "4,16", "--backend", "cpu", "--min-time", "0.001", "--no-bar",
                        "--plot", str(path)]) == 0
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_missing_matplotlib_is_a_clear_message(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib raises ImportError
    with pytest.raises(SystemExit, match="needs matplotlib"):
        _bench.main(["ntt", "--sizes", "4", "--min-time", "0.001", "--plot", str(tmp_path / "x.png")])


def test_bad_sizes():
    with pytest.raises(SystemExit):
        _bench.main(["ntt", "--sizes", "0"])

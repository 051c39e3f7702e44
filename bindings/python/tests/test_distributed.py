"""zkgpu.distributed on a local Ray cluster of two CPU workers (one cluster for the module,
num_cpus=2): results equal the direct calls and the known answers, input order kept when batches
finish out of order, the back-pressure bound, workers killed mid-job (ray.kill, and os._exit
inside a task) with every batch returned once, the retry limit, bad input as exceptions, an
existing cluster joined by address, and the benchmark's JSON."""

import itertools
import json
import os
import pathlib
import subprocess
import sys
import time

import numpy as np
import pytest

ray = pytest.importorskip("ray")

import zkgpu  # noqa: E402
import zkgpu.distributed as zd  # noqa: E402
from zkgpu.distributed import bench  # noqa: E402
from zkgpu.distributed._pool import WORKER_NICENESS, init_ray, plan  # noqa: E402

VECTORS = pathlib.Path(__file__).resolve().parents[3] / "tests" / "vectors"
# The tasks below are this module's functions; the workers cannot import a test module, so they
# receive them by value.
ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])

SIZES = [1, 7, 64, 100, 33, 2, 50, 43]  # 300 items, batches of uneven sizes


class _Shared:
    pool = None


@pytest.fixture(scope="module")
def cluster():
    init_ray(num_cpus=2, num_gpus=0, include_dashboard=False, log_to_driver=False)
    yield ray.get_runtime_context().gcs_address
    if _Shared.pool is not None:
        _Shared.pool.close()
        _Shared.pool = None
    ray.shutdown()


@pytest.fixture
def pool(cluster):
    """Two CPU workers, shared by the tests (a pool survives its workers' deaths)."""
    if _Shared.pool is None:
        _Shared.pool = zd.Pool(workers=2, gpu=False)
    return _Shared.pool


@pytest.fixture
def idle_cluster(cluster):
    """The cluster with both CPUs free, for tests that start workers of their own."""
    if _Shared.pool is not None:
        _Shared.pool.close()
        _Shared.pool = None
    deadline = time.monotonic() + 60  # ray.kill returns before Ray has the CPUs back
    while ray.available_resources().get("CPU", 0) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    return cluster


def _ed25519_items():
    """300 signatures of SUPERCOP's list (sk||pk:pk:msg:sig||msg), every fifth one altered."""
    keys, sigs, msgs, expected = [], [], [], []
    lines = (VECTORS / "ed25519" / "supercop_sign.input").read_text().splitlines()
    for i, line in enumerate(lines[:sum(SIZES)]):
        _, pk, msg, sig, _ = line.split(":")
        sig, msg = bytearray.fromhex(sig[:128]), bytes.fromhex(msg)
        if i % 5 == 4:
            sig[i % 64] ^= 1 << (i % 8)
        keys.append(bytes.fromhex(pk))
        sigs.append(bytes(sig))
        msgs.append(msg)
        expected.append(i % 5 != 4)
    return keys, sigs, msgs, np.array(expected)


def _split(sizes, *columns):
    bounds = list(itertools.accumulate([0] + sizes))
    return [tuple(c[a:b] for c in columns) for a, b in zip(bounds, bounds[1:])]


@pytest.fixture(scope="module")
def ed25519_batches():
    keys, sigs, msgs, expected = _ed25519_items()
    pk = np.frombuffer(b"".join(keys), np.uint8).reshape(-1, 32)
    sig = np.frombuffer(b"".join(sigs), np.uint8).reshape(-1, 64)
    batches = _split(SIZES, pk, sig, msgs)
    return batches, [e for (e,) in _split(SIZES, expected)]


def _direct(batches):
    return [zkgpu.ed25519_verify_batch(*b, backend="cpu") for b in batches]


def _assert_each_once(results, expected):
    assert len(results) == len(expected)
    for i, (got, want) in enumerate(zip(results, expected)):
        assert got.dtype == np.bool_ and np.array_equal(got, want), f"batch {i}"


def test_verify_ed25519_equals_direct_and_known_answers(pool, ed25519_batches):
    batches, expected = ed25519_batches
    seen = []
    results = list(zd.verify_ed25519(batches, pool=pool,
                                     progress=lambda done, total: seen.append((done, total))))
    _assert_each_once(results, expected)
    _assert_each_once(results, _direct(batches))
    assert seen == [(i + 1, len(batches)) for i in range(len(batches))]


def test_mldsa_verify_equals_direct_and_wycheproof(pool):
    doc = json.loads((VECTORS / "mldsa" / "wycheproof_mldsa_44_verify_test.json").read_text())
    rows = [(bytes.fromhex(g["publicKey"]), bytes.fromhex(t["msg"]), bytes.fromhex(t["sig"]),
             bytes.fromhex(t.get("ctx", "")), t["result"] == "valid")
            for g in doc["testGroups"] for t in g["tests"]]
    columns = [list(c) for c in zip(*rows)]
    sizes = [len(rows) // 3, 1, len(rows) - len(rows) // 3 - 1]
    batches = _split(sizes, *columns[:4])
    results = list(zd.mldsa_verify(batches, set=44, pool=pool))
    expected = [np.array(e) for (e,) in _split(sizes, columns[4])]
    _assert_each_once(results, expected)
    _assert_each_once(results, [zkgpu.mldsa_verify(*b, set=44, backend="cpu") for b in batches])


WHIR = zkgpu.WhirParams(num_variables=10, folding_factor=2, pow_bits=0, security_level=32)


def test_prove_whir_equals_direct_and_verifies(pool):
    rng = np.random.default_rng(16)
    polys = []
    for claims in (1, 2, 1):
        evals = rng.integers(0, zkgpu.P, 1 << WHIR.num_variables, dtype=np.uint32)
        points = rng.integers(0, zkgpu.P, (claims, WHIR.num_variables, 4), dtype=np.uint32)
        values = np.stack([zkgpu.evaluate_multilinear(evals, p) for p in points])
        polys.append((evals, points, values))
    proofs = list(zd.prove_whir(iter(polys), WHIR, pool=pool))
    assert len(proofs) == len(polys)
    for (evals, points, values), proof in zip(polys, proofs):
        assert proof.data == zkgpu.whir_prove(WHIR, evals, points, values, backend="cpu").data
        assert zkgpu.whir_verify(WHIR, points, values, proof, expected_root=proof.root)


def _verify_after(item, backend):
    """Verifies a batch, then waits: a task of this module that finishes when told to."""
    delay, batch = item
    verdicts = zkgpu.ed25519_verify_batch(*batch, backend=backend)
    time.sleep(delay)
    return time.monotonic(), verdicts


def test_order_kept_under_out_of_order_completion(pool, ed25519_batches):
    batches, expected = ed25519_batches
    # Batch 0 finishes late: the other worker runs most later batches meanwhile.
    items = [(1.0 if i == 0 else 0.0, b) for i, b in enumerate(batches)]
    results = list(zd.imap(_verify_after, items, pool=pool, max_in_flight=len(items)))
    finished = [t for t, _ in results]
    assert sum(t < finished[0] for t in finished[1:]) >= len(items) // 2
    _assert_each_once([v for _, v in results], expected)


def test_back_pressure_bound_on_an_unbounded_input(pool, ed25519_batches):
    batches, _ = ed25519_batches
    taken = []

    def endless():
        for i in itertools.count():
            taken.append(i)
            yield batches[i % len(batches)]

    bound, gaps = 3, []
    results = zd.verify_ed25519(endless(), pool=pool, max_in_flight=bound)
    for done, _ in enumerate(itertools.islice(results, 20), start=1):
        gaps.append(len(taken) - done)
    results.close()
    assert max(gaps) <= bound - 1  # taken and not yet yielded, after this one was yielded
    assert max(gaps) == bound - 1  # and the bound is used, not just respected
    assert len(taken) <= 20 + bound


def test_worker_killed_by_ray_kill_mid_job(pool, ed25519_batches):
    batches, expected = ed25519_batches
    batches = batches * 2
    restarts = pool.restarts

    def kill_one(done, total):
        if done == 2:
            ray.kill(pool.actors[0], no_restart=True)

    results = list(zd.verify_ed25519(batches, pool=pool, max_in_flight=4, progress=kill_one))
    _assert_each_once(results, expected * 2)
    assert pool.restarts > restarts


def _exit_once(item, backend):
    """Ends its worker's process (os._exit) the first time it runs the marked batch."""
    marker, batch = item
    if marker is not None and not os.path.exists(marker):
        open(marker, "w").close()
        os._exit(1)
    return zkgpu.ed25519_verify_batch(*batch, backend=backend)


def test_worker_exits_inside_a_task(pool, ed25519_batches, tmp_path):
    batches, expected = ed25519_batches
    marker = str(tmp_path / "died")
    items = [(marker if i == 3 else None, b) for i, b in enumerate(batches)]
    restarts = pool.restarts
    results = list(zd.imap(_exit_once, items, pool=pool))
    assert os.path.exists(marker)
    _assert_each_once(results, expected)
    assert pool.restarts > restarts


def _exit_always(item, backend):
    if item == "die":
        os._exit(1)
    return item


def test_retry_limit_gives_a_clear_error(pool):
    # Batch 1 ends every worker that runs it; batch 2, queued behind it, is not charged for that.
    with pytest.raises(zd.WorkerLostError, match=r"batch 1: its worker was lost 2 times while "
                       r"running it.*max_retries=1"):
        list(zd.imap(_exit_always, ["a", "die", "b"], pool=pool, max_retries=1))
    assert list(zd.imap(_exit_always, ["a", "b"], pool=pool)) == ["a", "b"]  # still usable


def test_bad_input_is_an_exception(pool, ed25519_batches):
    batches, _ = ed25519_batches
    pk, sig, msgs = batches[2]
    with pytest.raises(TypeError, match=r"verify_ed25519: batch 1 must be a tuple"):
        list(zd.verify_ed25519([batches[0], (pk, sig)], pool=pool))
    with pytest.raises(zkgpu.InvalidArgument, match="public_keys"):
        list(zd.verify_ed25519([batches[0], (pk.astype(np.float32), sig, msgs)], pool=pool))
    with pytest.raises(zkgpu.InvalidArgument, match="64 public keys, 63 signatures"):
        list(zd.verify_ed25519([(pk, sig[:63], msgs)], pool=pool))
    with pytest.raises(zkgpu.InvalidArgument, match="mode"):
        zd.verify_ed25519(batches, mode="lax", pool=pool)
    with pytest.raises(zkgpu.InvalidArgument):
        zd.mldsa_verify([], set=42, pool=pool)
    with pytest.raises(TypeError, match="WhirParams"):
        zd.prove_whir([], {"num_variables": 10}, pool=pool)
    with pytest.raises(ValueError, match="max_in_flight"):
        zd.verify_ed25519(batches, pool=pool, max_in_flight=0)
    with pytest.raises(TypeError, match="either pool or Pool's options"):
        zd.verify_ed25519(batches, pool=pool, workers=2)
    with pytest.raises(ValueError, match="workers"):
        zd.Pool(workers=0)
    with pytest.raises(ValueError, match="backend"):
        zd.Pool(backend="tpu")
    with pytest.raises(ValueError, match="cpus_per_worker"):
        zd.Pool(cpus_per_worker=0)
    # The pool is unharmed by all of this.
    assert list(zd.verify_ed25519(batches[:1], pool=pool))[0].tolist() == [True]


def test_gpu_workers_take_half_the_cpus_per_gpu(monkeypatch):
    # The other half stays for the driver's puts and Ray's daemons (one GPU worker on the H200
    # host: 0.96 of the direct call with 8 of 16 CPUs, 0.64 with all 16).
    for cpus, gpus, want in ((16, 1, 8), (128, 8, 8), (20, 3, 3), (1, 1, 1), (3, 2, 1)):
        monkeypatch.setattr(ray, "cluster_resources", lambda: {"CPU": float(cpus), "GPU": float(gpus)})
        shape = plan()
        assert (shape["gpu"], shape["backend"], shape["workers"], shape["cpus_per_worker"]) == (
            True, "cuda", gpus, want), (cpus, gpus)
        assert plan(cpus_per_worker=cpus)["cpus_per_worker"] == cpus
        cpu_shape = plan(gpu=False)
        assert (cpu_shape["backend"], cpu_shape["workers"], cpu_shape["cpus_per_worker"]) == ("cpu", cpus, 1)


def test_workers_that_cannot_start_are_an_error(idle_cluster):
    # A worker of three CPUs on a two-CPU cluster is never placed.
    with pytest.raises(zd.DistributedError, match=r"1 zkgpu worker\(s\) needing \{'num_cpus': 3, "
                       r"'num_gpus': 0\} did not start within 2 s; the cluster has CPU 2"):
        zd.Pool(workers=1, gpu=False, cpus_per_worker=3, start_timeout_s=2)


def test_every_public_name_has_a_stub_and_a_docstring():
    import ast

    stub = pathlib.Path(zd.__file__).with_name("__init__.pyi")
    stubbed = {n.name for n in ast.parse(stub.read_text()).body
               if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    for name in zd.__all__:
        assert name in stubbed, f"{name} has no stub"
        assert getattr(zd, name).__doc__, f"{name} has no docstring"


def _input_view(item, backend):
    return item.flags.writeable, item.nbytes, int(item[123])


def _niceness(_item, _backend):
    return os.nice(0)


def test_workers_of_a_local_cluster_run_at_normal_priority(pool):
    # Ray's default (nice 15) lets any other busy process stall the workers' OpenMP teams.
    assert list(zd.imap(_niceness, [None, None], pool=pool)) == [WORKER_NICENESS] * 2


def test_numpy_inputs_reach_the_worker_without_a_copy(pool):
    big = np.arange(1 << 20, dtype=np.uint8)
    # A read-only view means the worker reads the object store's shared memory, not a copy.
    assert list(zd.imap(_input_view, [big], pool=pool)) == [(False, 1 << 20, 123)]


def test_an_existing_cluster_joined_by_address(idle_cluster, ed25519_batches):
    batches, expected = ed25519_batches
    script = (
        "import sys, numpy as np, ray, zkgpu.distributed as zd\n"
        "pk = np.frombuffer(bytes.fromhex(sys.argv[2]), np.uint8).reshape(-1, 32)\n"
        "sig = np.frombuffer(bytes.fromhex(sys.argv[3]), np.uint8).reshape(-1, 64)\n"
        "msgs = [bytes.fromhex(m) for m in sys.argv[4].split(',')]\n"
        "out = list(zd.verify_ed25519([(pk, sig, msgs)] * 3, address=sys.argv[1], workers=2,\n"
        "                             gpu=False))\n"
        "assert ray.get_runtime_context().gcs_address == sys.argv[1]\n"
        "print(''.join('1' if v else '0' for o in out for v in o))\n")
    pk, sig, msgs = batches[1]
    run = subprocess.run(
        [sys.executable, "-c", script, idle_cluster, pk.tobytes().hex(), sig.tobytes().hex(),
         ",".join(m.hex() for m in msgs)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.split()[-1] == "".join("1" if v else "0" for v in expected[1]) * 3


def test_bench_reports_json(idle_cluster, tmp_path):
    out = tmp_path / "bench.json"
    assert bench.main(["bench", "--workers", "1,2", "--batches", "4", "--batch-size", "64",
                       "--gpu", "no", "--json", str(out)]) == 0
    report = json.loads(out.read_text())
    assert report["backend"] == "cpu" and report["direct"]["items_per_s"] > 0
    assert [(r["workers"], r["inputs"]) for r in report["workers"]] == [
        (1, "arrays"), (1, "refs"), (2, "arrays"), (2, "refs")]
    assert all(r["items_per_s"] > 0 for r in report["workers"])
    # Time inside the workers' batches is part of each run's wall time (4 batches per run).
    assert all(0 < r["worker_ms_per_batch"] * 4 / 1e3 <= r["seconds"] * r["workers"]
               for r in report["workers"])
    assert report["direct_from_store"]["items_per_s"] > 0
    assert report["put_seconds"] > 0
    assert "refs" in bench.table(report) and "store" in bench.table(report)

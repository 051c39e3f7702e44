"""The package itself: version, exceptions, backends, introspection."""

import pathlib
import re
import subprocess
import sys

import numpy as np
import pytest

import zkgpu


def test_version_is_the_cmake_project_version():
    assert re.fullmatch(r"\d+\.\d+\.\d+", zkgpu.__version__)
    cmake = pathlib.Path(__file__).resolve().parents[3] / "CMakeLists.txt"
    if cmake.exists():
        m = re.search(r"project\(zkgpu VERSION ([0-9.]+)", cmake.read_text())
        assert m and m.group(1) == zkgpu.__version__


def test_exception_hierarchy():
    for cls in (zkgpu.InvalidArgument, zkgpu.OutOfMemory, zkgpu.Unavailable, zkgpu.CudaError, zkgpu.Internal):
        assert issubclass(cls, zkgpu.Error)
    assert issubclass(zkgpu.InvalidArgument, ValueError)
    assert issubclass(zkgpu.OutOfMemory, MemoryError)


def test_library_errors_carry_the_library_message():
    # A shape the C++ library rejects (a WHIR fold larger than n) arrives with its own words.
    with pytest.raises(zkgpu.InvalidArgument, match="fold"):
        zkgpu.WhirParams(num_variables=2, folding_factor=4).derive()


def test_unknown_backend_is_invalid_argument():
    with pytest.raises(zkgpu.InvalidArgument, match="backend"):
        zkgpu.ntt(np.zeros(4, np.uint32), backend="gpu")


def test_cuda_without_gpu_is_unavailable():
    if zkgpu.cuda_usable():
        pytest.skip("a GPU is usable here")
    with pytest.raises(zkgpu.Unavailable):
        zkgpu.ntt(np.zeros(4, np.uint32), backend="cuda")
    assert zkgpu.cuda_unavailable_reason()
    assert zkgpu.gpu_info() is None


def test_introspection():
    f = zkgpu.cpu_features()
    assert f["threads"] >= 1 and f["simd_level"] in ("scalar", "avx2", "avx512")
    assert isinstance(zkgpu.cuda_built(), bool)
    zkgpu.release_gpu_caches()


def test_help_lists_the_capabilities():
    out = subprocess.run([sys.executable, "-c", "import zkgpu; help(zkgpu)"], capture_output=True, text=True,
                         check=True).stdout
    for name in ("ntt", "poseidon2_permute", "ed25519_verify_batch", "whir_prove", "MsmBases", "mlkem_encaps"):
        assert name in out


def test_every_public_name_has_a_stub_and_a_docstring():
    import ast

    stub = pathlib.Path(zkgpu.__file__).with_name("__init__.pyi")
    tree = ast.parse(stub.read_text())
    stubbed = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    stubbed |= {a.asname or a.name for n in tree.body if isinstance(n, ast.ImportFrom) for a in n.names}
    stubbed |= {t.id for n in tree.body if isinstance(n, (ast.AnnAssign, ast.Assign))
                for t in ([n.target] if isinstance(n, ast.AnnAssign) else n.targets) if isinstance(t, ast.Name)}
    for name in zkgpu.__all__:
        assert name in stubbed, f"{name} has no stub"
        obj = getattr(zkgpu, name)
        if callable(obj):
            assert obj.__doc__, f"{name} has no docstring"

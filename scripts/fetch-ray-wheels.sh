#!/usr/bin/env bash
# Downloads Ray and the dependencies the GPU machine lacks (it has no network; see
# docs/python.md "Ray") as cp312 manylinux wheels into .whl/, and slims Ray's wheel to fit a device
# call, which carries at most 64 MiB with the working tree: Ray's wheel is 79 MB, of which 32 MB
# are the Java workers' jar, and its three binaries ship unstripped.
#
#   scripts/fetch-ray-wheels.sh [--python 3.12] [--dest .whl]
#
# The slim wheel drops ray/jars (Java workers), the ML libraries zkgpu.distributed never imports
# (rllib, serve, llm, train, tune, data) and source maps, strips the ELF files' symbol tables,
# recompresses with LZMA (Python's zipfile, which pip installs wheels with, reads it) and rewrites
# RECORD to match. Install there as docs/python.md says:
#   python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
set -euo pipefail
cd "$(dirname "$0")/.."
python=3.12
dest=.whl
while (($#)); do
  case "$1" in
    --python) python="$2"; shift 2 ;;
    --dest) dest="$2"; shift 2 ;;
    *) echo "usage: $0 [--python 3.12] [--dest .whl]" >&2; exit 2 ;;
  esac
done
ray_pin=$(grep -E '^ray==' bindings/python/requirements-ray.txt)
# Ray's requirements that the GPU machine's image lacks (KINDS.md's package list: it has click,
# filelock, msgpack, packaging, protobuf, pyyaml, requests, attrs and typing-extensions).
deps=(jsonschema==4.26.0 jsonschema-specifications==2025.9.1 referencing==0.37.0 rpds-py==0.30.0)
platforms=()
for p in manylinux_2_28_x86_64 manylinux_2_27_x86_64 manylinux_2_17_x86_64 manylinux2014_x86_64 \
  manylinux1_x86_64; do
  platforms+=(--platform "$p")
done
raw=$(mktemp -d)
trap 'rm -rf "$raw"' EXIT
tag=${python/./}
python3 -m pip download -q --no-deps --only-binary=:all: --python-version "$python" \
  --implementation cp "${platforms[@]}" -d "$raw" "$ray_pin" "${deps[@]}"
mkdir -p "$dest"
rm -f "$dest"/ray-*.whl "$dest"/jsonschema-*.whl "$dest"/jsonschema_specifications-*.whl \
  "$dest"/referencing-*.whl "$dest"/rpds_py-*.whl
for whl in "$raw"/*.whl; do
  case "$(basename "$whl")" in
    ray-*) python3 - "$whl" "$dest" <<'EOF' ;;
import base64, hashlib, os, subprocess, sys, tempfile, zipfile

src, dest = sys.argv[1], sys.argv[2]
DROP = ("ray/jars/", "ray/rllib/", "ray/serve/", "ray/llm/", "ray/train/", "ray/tune/",
        "ray/data/")
out = os.path.join(dest, os.path.basename(src))
records = []
with zipfile.ZipFile(src) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_LZMA) as zout:
    record_name = next(n for n in zin.namelist() if n.endswith(".dist-info/RECORD"))
    for info in zin.infolist():
        name = info.filename
        if name == record_name or name.startswith(DROP) or name.endswith(".js.map"):
            continue
        data = zin.read(info)
        if data[:4] == b"\x7fELF":
            with tempfile.NamedTemporaryFile(delete=False) as tmp:
                tmp.write(data)
            subprocess.run(["strip", "--strip-unneeded", tmp.name], check=True)
            with open(tmp.name, "rb") as f:
                data = f.read()
            os.unlink(tmp.name)
        member = zipfile.ZipInfo(name, info.date_time)
        member.external_attr = info.external_attr  # keeps the binaries executable
        member.compress_type = zipfile.ZIP_LZMA
        zout.writestr(member, data)
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        records.append(f"{name},sha256={digest},{len(data)}")
    records.append(f"{record_name},,")
    zout.writestr(record_name, "\n".join(records) + "\n")
print(f"{os.path.basename(src)}: {os.path.getsize(src) / 2**20:.1f} MiB -> "
      f"{os.path.getsize(out) / 2**20:.1f} MiB")
EOF
    *) cp "$whl" "$dest/" ;;
  esac
done
total=$(du -cb "$dest"/ray-*.whl "$dest"/jsonschema-*.whl "$dest"/jsonschema_specifications-*.whl \
  "$dest"/referencing-*.whl "$dest"/rpds_py-*.whl | tail -1 | cut -f1)
ls -l "$dest"
echo "fetch-ray-wheels: cp$tag wheels in $dest: $((total / 1024)) KiB in all"

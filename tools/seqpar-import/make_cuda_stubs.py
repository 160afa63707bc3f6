#!/usr/bin/env python3
"""Make PyPI's CUDA build of torch importable on a CPU-only machine without
the nvidia-* wheels (several GB).

The Linux x86_64 torch wheels on PyPI are CUDA builds: torch/lib/*.so have
DT_NEEDED entries on libcudart, libcublas, libcudnn, libnccl, ... which the
wheel normally gets from the nvidia-* wheels through its RPATH
($ORIGIN/../../nvidia/cu13/lib, .../nvidia/nccl/lib, ...). PyPI has no
CPU-only variant. seqpar-import only traces models on the CPU, where no CUDA
function is ever called, so this script writes small stub libraries with the
same SONAMEs, symbol versions and symbol names into
site-packages/nvidia/cu13/lib (on torch's RPATH). Every stub function returns
100 (cudaErrorNoDevice / CUDA_ERROR_NO_DEVICE), so torch.cuda.is_available()
is False; *ErrorString/*StatusString stubs return a message.

Usage: make_cuda_stubs.py SITE_PACKAGES_DIR   (needs readelf and cc)
Run only in a venv that does NOT hold the real nvidia-* wheels.
"""
import os
import re
import subprocess
import sys
import tempfile

# Libraries that this script stubs: NVIDIA's, by SONAME.
NVIDIA_SONAME = re.compile(
    r"^lib(cuda|cudart|cublas|cublasLt|cusparse|cusparseLt|cufft|cufile|cupti|"
    r"cudnn|nccl|nvrtc|nvshmem_host|cusolver|curand|nvJitLink|nvToolsExt)\.so\.\d+$")

# Unversioned undefined symbols by prefix -> the SONAME stem that defines them.
UNVERSIONED = [
    (re.compile(r"^p?nccl"), "libnccl.so."),
    (re.compile(r"^cusparseLt"), "libcusparseLt.so."),
    (re.compile(r"^cuFile"), "libcufile.so."),
    (re.compile(r"^nvshmem"), "libnvshmem_host.so."),
    (re.compile(r"^cupti"), "libcupti.so."),
    (re.compile(r"^cu[A-Z]"), "libcuda.so."),
]

ERROR_STRING = re.compile(r"(Error|Status)(String|Name)$")


def readelf(args, path):
    return subprocess.run(["readelf", "-W"] + args + [path], check=True,
                          capture_output=True, text=True).stdout


def needed(path):
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]",
                      readelf(["-d"], path))


def dyn_syms(path):
    """Yields (type, bind, ndx, name, version) for each dynamic symbol."""
    for line in readelf(["--dyn-syms"], path).splitlines():
        parts = line.split()
        if len(parts) < 8 or not parts[0].endswith(":"):
            continue
        typ, bind, ndx, full = parts[3], parts[4], parts[6], parts[7]
        name, _, ver = full.partition("@")
        ver = ver.lstrip("@")
        ver = re.sub(r" \(\d+\)$", "", ver)
        yield typ, bind, ndx, name, ver


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    site = sys.argv[1]
    torch_lib = os.path.join(site, "torch", "lib")
    libs = [os.path.join(torch_lib, f) for f in sorted(os.listdir(torch_lib))
            if f.endswith(".so")]
    sonames = set()
    for lib in libs:
        sonames.update(n for n in needed(lib) if NVIDIA_SONAME.match(n))
    # Version nodes named after a library (libcudart.so.13) or not (NVSHMEM).
    version_owner = {s: s for s in sonames}
    version_owner["NVSHMEM"] = next(
        (s for s in sonames if s.startswith("libnvshmem_host")), None)

    defined = set()
    undefined = {}  # name -> (type, version)
    for lib in libs:
        for typ, bind, ndx, name, ver in dyn_syms(lib):
            if ndx != "UND":
                defined.add(name)
            elif name and bind != "WEAK":
                undefined.setdefault(name, (typ, ver))

    per_lib = {s: {} for s in sonames}  # soname -> name -> (type, version)
    for name, (typ, ver) in sorted(undefined.items()):
        if ver:
            owner = version_owner.get(ver)
            if owner:
                per_lib[owner][name] = (typ, ver)
            continue
        if name in defined:
            continue
        for pat, stem in UNVERSIONED:
            if pat.match(name):
                owner = next((s for s in sonames if s.startswith(stem)), None)
                if owner:
                    per_lib[owner][name] = (typ, None)
                break

    out = os.path.join(site, "nvidia", "cu13", "lib")
    os.makedirs(out, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for soname, syms in sorted(per_lib.items()):
            c = ['/* CPU-only stub of %s for torch (seqpar-import). */' % soname,
                 'static const char msg[] = "%s is a stub: no CUDA here";'
                 % soname]
            nodes = {}
            for name, (typ, ver) in sorted(syms.items()):
                if typ == "OBJECT":
                    c.append("char %s[256];" % name)
                elif ERROR_STRING.search(name):
                    c.append("const char *%s(void) { return msg; }" % name)
                else:
                    c.append("int %s(void) { return 100; }" % name)
                nodes.setdefault(ver or soname, []).append(name)
            src = os.path.join(tmp, soname + ".c")
            vs = os.path.join(tmp, soname + ".map")
            with open(src, "w") as f:
                f.write("\n".join(c) + "\n")
            with open(vs, "w") as f:
                for node, names in nodes.items():
                    f.write("%s {\n  global:\n%s\n};\n" % (
                        node, "\n".join("    %s;" % n for n in names)))
                if not nodes:
                    f.write("%s { local: *; };\n" % soname)
            subprocess.run(
                ["cc", "-shared", "-fPIC", "-O0", "-w", "-fno-builtin", "-o",
                 os.path.join(out, soname), src, "-Wl,-soname," + soname,
                 "-Wl,--version-script=" + vs], check=True)
            print("stub %-24s %4d symbols" % (soname, len(syms)))


if __name__ == "__main__":
    main()

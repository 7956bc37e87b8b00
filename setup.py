"""Build the Cython kernels.

All compiler directives live here (``DIRECTIVES``), in one place. Environment switches:

* ``MJFAST_DEBUG_CYTHON=1`` turns bounds and initialisation checks on;
* ``MJFAST_ANNOTATE=1`` writes Cython's HTML annotation next to each ``.pyx``;
* ``MJFAST_OPENMP=0`` builds without OpenMP even when the compiler has it.
"""
import hashlib
import json
import os
import sys
import tempfile
import textwrap
from pathlib import Path

import Cython
import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

DEBUG = os.environ.get("MJFAST_DEBUG_CYTHON", "0") == "1"
ANNOTATE = os.environ.get("MJFAST_ANNOTATE", "0") == "1"
WANT_OPENMP = os.environ.get("MJFAST_OPENMP", "1") != "0"

DIRECTIVES = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "initializedcheck": DEBUG,
    "wraparound": False,
    "cdivision": True,
    "nonecheck": False,
    "embedsignature": True,
    "embedsignature.format": "python",
    "freethreading_compatible": True,
}

KERNELS = ["_shanten", "_efficiency", "_decompose", "_mcr", "_wall", "_game", "_value", "_front"]


def _compiler_has_openmp() -> bool:
    """Try to compile and link a tiny OpenMP program with the default compiler."""
    from setuptools._distutils.ccompiler import new_compiler
    from setuptools._distutils.errors import CompileError, LinkError
    from setuptools._distutils.sysconfig import customize_compiler

    cc = new_compiler()
    customize_compiler(cc)
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp, "omp_probe.c")
        src.write_text(textwrap.dedent("""
            #include <omp.h>
            int main(void) { return omp_get_max_threads() > 0 ? 0 : 1; }
        """))
        try:
            objs = cc.compile([str(src)], output_dir=tmp, extra_postargs=["-fopenmp"])
            cc.link_executable(objs, str(Path(tmp, "omp_probe")), extra_postargs=["-fopenmp"])
        except (CompileError, LinkError):
            return False
    return True


class BuildExt(build_ext):
    """Add OpenMP flags only when the compiler supports them (prange is serial otherwise)."""

    def build_extensions(self):
        use_openmp = WANT_OPENMP and sys.platform != "win32" and _compiler_has_openmp()
        if not use_openmp:
            print("mjfast: building WITHOUT OpenMP; n_threads > 1 will run serially", file=sys.stderr)
        for ext in self.extensions:
            ext.extra_compile_args = ["-O3"] + (["-fopenmp"] if use_openmp else [])
            ext.extra_link_args = ["-fopenmp"] if use_openmp else []
            ext.define_macros = [("NPY_NO_DEPRECATED_API", "NPY_1_9_API_VERSION")]
        super().build_extensions()


#: What the generated C of the kernels depends on, from the last build (in the build folder).
STAMP = Path("build", "mjfast-cython-inputs.json")


def _inputs_digest() -> str:
    """A hash of everything the generated C depends on: the kernel sources, Cython, the directives."""
    h = hashlib.sha256(f"{Cython.__version__} {sorted(DIRECTIVES.items())} {ANNOTATE}".encode())
    for path in sorted(Path("src/mjfast/_kernels").glob("*.p*")):
        if path.suffix in (".pyx", ".pxd", ".pxi"):
            h.update(path.name.encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def _cythonize(extensions: list) -> list:
    """Cythonize the kernels, unless their C was generated from the same inputs already.

    pip builds each install in a fresh environment, so Cython's own ``.pxd`` files are always
    newer than the C it generated last time, and Cython's timestamp check would regenerate (and
    the compiler then recompile) every kernel on every install. Comparing contents instead keeps
    the C files, and setuptools then skips the compiler for the kernels already built.
    """
    digest = _inputs_digest()
    try:
        done = json.loads(STAMP.read_text())
    except (OSError, ValueError):
        done = {}
    reuse, fresh = [], []
    for ext in extensions:
        c_file = Path(ext.sources[0]).with_suffix(".c")
        if done.get(ext.name) == digest and c_file.exists():
            ext.sources = [str(c_file)]
            reuse.append(ext)
        else:
            fresh.append(ext)
    # forced: the inputs did change, whatever the timestamps say
    built = cythonize(fresh, compiler_directives=DIRECTIVES, annotate=ANNOTATE, force=True) if fresh else []
    STAMP.parent.mkdir(exist_ok=True)
    STAMP.write_text(json.dumps({ext.name: digest for ext in extensions}))
    return reuse + built


extensions = [
    Extension(f"mjfast._kernels.{name}", [f"src/mjfast/_kernels/{name}.pyx"], include_dirs=[np.get_include()])
    for name in KERNELS
]

setup(
    ext_modules=_cythonize(extensions),
    cmdclass={"build_ext": BuildExt},
)

"""Build of the C extension; all metadata lives in pyproject.toml.

Environment: PCTCODEC_WERROR=1 makes compiler warnings errors (as in CI);
PCTCODEC_DEBUG=1 keeps debug information (the sanitizer and valgrind builds),
which release builds leave out.
"""
import glob
import os
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# The core is plain C99 with no Python.h; the binding (src/_pctcodec*.c, one
# job per file, listed in src/_pctcodec.h) is the extension module around it.
# The Python package is src/pctcodec (package-dir in pyproject.toml).
CORE_SOURCES = sorted(glob.glob(os.path.join("src", "core", "*.c")))
BINDING_SOURCES = sorted(glob.glob(os.path.join("src", "_pctcodec*.c")))
HEADERS = sorted(glob.glob(os.path.join("src", "core", "*.h")) + glob.glob(os.path.join("src", "*.h")))

WERROR = bool(os.environ.get("PCTCODEC_WERROR"))
DEBUG = bool(os.environ.get("PCTCODEC_DEBUG"))


class BuildExt(build_ext):
    """Warning and debug flags in the dialect of the compiler that builds."""

    def build_extensions(self):
        if self.compiler.compiler_type == "msvc":
            compile_args = ["/W3"] + (["/WX"] if WERROR else [])
            link_args = []
        else:
            compile_args = ["-Wall", "-Wextra", "-Wno-missing-field-initializers"]
            # Only PyInit__pctcodec is the module's interface: with every other
            # symbol hidden, calls between its files (the batch loop into the
            # kernels, pct_rows_get, ...) go straight to their target, not
            # through the PLT, and cannot be interposed by another library.
            compile_args.append("-fvisibility=hidden")
            compile_args += ["-Werror"] if WERROR else []
            link_args = []
            if not DEBUG:
                compile_args.append("-g0")  # after the interpreter's own -g
                if sys.platform.startswith("linux"):
                    link_args.append("-s")  # no symbol table either
        for ext in self.extensions:
            ext.extra_compile_args = compile_args
            ext.extra_link_args = link_args
        super().build_extensions()


setup(
    ext_modules=[
        Extension(
            "pctcodec._pctcodec",
            sources=[*BINDING_SOURCES, *CORE_SOURCES],
            include_dirs=[os.path.join("src", "core")],
            # the kernels share their code through headers: a change there rebuilds
            depends=HEADERS,
        )
    ],
    cmdclass={"build_ext": BuildExt},
)

"""Build of the C extension; all metadata lives in pyproject.toml."""
import glob
import os

from setuptools import Extension, setup

# The core is plain C99 with no Python.h; the binding (src/_pctcodec*.c, one
# job per file, listed in src/_pctcodec.h) is the extension module around it.
CORE_SOURCES = sorted(glob.glob(os.path.join("src", "core", "*.c")))
BINDING_SOURCES = sorted(glob.glob(os.path.join("src", "_pctcodec*.c")))
BINDING_HEADERS = sorted(glob.glob(os.path.join("src", "_pctcodec*.h")))

extra = ["-Wall", "-Wextra", "-Wno-missing-field-initializers"]
if os.environ.get("PCTCODEC_WERROR"):
    extra.append("-Werror")

setup(
    ext_modules=[
        Extension(
            "pctcodec._pctcodec",
            sources=[*BINDING_SOURCES, *CORE_SOURCES],
            include_dirs=[os.path.join("src", "core")],
            # the kernels share their code through headers: a change there rebuilds
            depends=sorted(glob.glob(os.path.join("src", "core", "*.h")) + BINDING_HEADERS),
            extra_compile_args=extra,
        )
    ]
)

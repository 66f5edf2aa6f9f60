"""Build of the C extension; all metadata lives in pyproject.toml."""
import glob
import os

from setuptools import Extension, setup

# The core is plain C99 with no Python.h; only the binding (src/_pctcodec*.c)
# touches CPython.
CORE_SOURCES = sorted(glob.glob(os.path.join("src", "core", "*.c")))
BINDING_SOURCES = [
    os.path.join("src", "_pctcodec.c"),
    os.path.join("src", "_pctcodec_uri.c"),
    os.path.join("src", "_pctcodec_ecma.c"),
    os.path.join("src", "_pctcodec_batch.c"),
    os.path.join("src", "_pctcodec_csv.c"),
    os.path.join("src", "arrow_c.c"),  # no Python, but only the binding uses it
]
BINDING_HEADERS = [os.path.join("src", "_pctcodec.h"), os.path.join("src", "arrow_c.h")]

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

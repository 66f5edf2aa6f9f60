"""Running a child interpreter that imports the same pctcodec as the tests."""
import os
import subprocess
import sys
import tempfile


def child_env(extra_env=None):
    """The environment of a child interpreter run outside the source tree:
    PYTHONPATH made absolute so that an in-place build stays importable, and
    `extra_env` added."""
    env = dict(os.environ, **(extra_env or {}))
    if env.get("PYTHONPATH"):
        env["PYTHONPATH"] = os.pathsep.join(os.path.abspath(p) for p in env["PYTHONPATH"].split(os.pathsep))
    return env


def run_python(args, extra_env=None, **kwargs):
    """sys.executable with `args`, from a directory outside the source tree (so
    that a `python -c` there does not import the unbuilt source package), in
    child_env(extra_env)."""
    with tempfile.TemporaryDirectory() as cwd:
        return subprocess.run([sys.executable, *args], cwd=cwd, env=child_env(extra_env),
                              capture_output=True, **kwargs)

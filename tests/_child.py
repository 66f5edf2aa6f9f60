"""Running a child interpreter that imports the same pctcodec as the tests."""
import os
import subprocess
import sys
import tempfile


def run_python(args, extra_env=None, **kwargs):
    """sys.executable with `args`, from a directory outside the source tree (so
    that a `python -c` there does not import the unbuilt source package), with
    PYTHONPATH made absolute so that an in-place build stays importable, and
    `extra_env` added to the environment."""
    env = dict(os.environ, **(extra_env or {}))
    if env.get("PYTHONPATH"):
        env["PYTHONPATH"] = os.pathsep.join(os.path.abspath(p) for p in env["PYTHONPATH"].split(os.pathsep))
    with tempfile.TemporaryDirectory() as cwd:
        return subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True, **kwargs)

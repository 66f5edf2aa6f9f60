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


def assert_kernel_child_clean(source, kernel):
    """Runs `source` (python -c, with the kernel's name as argv[1]) under
    PCTCODEC_KERNEL=kernel and asserts that it exits cleanly and that its
    last output ends with a failure count of 0."""
    r = run_python(["-c", source, kernel], extra_env={"PCTCODEC_KERNEL": kernel}, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.rstrip().endswith(" 0"), r.stdout

"""A private copy of this interpreter's ``urllib.parse``, run from its own code.

pctcodec hands the arguments its C paths do not take (``None``, a list as
``safe``, a str subclass that overrides a method urllib calls...) to urllib's
algorithm, which alone can honour them. That algorithm must be urllib's own,
whatever ``urllib.parse`` holds when the call comes: after
``pctcodec.install()`` or ``urllib.parse.quote = pctcodec.quote``, the live
module's functions would hand the argument back to pctcodec (``quote_plus``
calls the module's ``quote``), and so on until the stack runs out.

``parse`` is a module of its own made from the code of the interpreter's
``urllib/parse.py`` (the same code object the import system loads), with its
own globals: its functions only ever call each other, and it is made the same
way however often pctcodec is imported or whatever was patched before. It is
never put in ``sys.modules``.
"""
import importlib.util
import types


def _copy_of_urllib_parse() -> types.ModuleType:
    spec = importlib.util.find_spec("urllib.parse")
    assert spec is not None and spec.origin is not None
    code = spec.loader.get_code("urllib.parse")  # type: ignore[union-attr]
    module = types.ModuleType(__name__ + ".parse", "A private copy of urllib.parse (see pctcodec._urllib).")
    module.__file__ = spec.origin
    exec(code, module.__dict__)
    return module


parse = _copy_of_urllib_parse()

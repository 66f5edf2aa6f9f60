"""``cast`` and ``overload`` for the type checker, without importing typing
at run time (the command line starts faster): the type checker reads the
names from typing, the interpreter gets two no-ops of the same meaning."""
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import cast as cast, overload as overload
else:
    def cast(type_, value):
        """The value itself (typing.cast)."""
        return value

    def overload(func):
        """The function itself: the last definition of the name is the one that runs (typing.overload)."""
        return func

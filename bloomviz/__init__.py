"""bloomviz: a desktop app that makes Bloom filters visible."""

__version__ = "0.1.0"

import os as _os

# numba marks up its compile-time messages with colorama, whose init()/deinit() swap the process's sys.stdout
# and sys.stderr: done on the window's warm-up thread while the main thread printed, the main thread's output
# went to the stream colorama had saved (a clean install's first compile, then a command's output lost). The
# messages keep their words, without colour. Set before any kernel imports numba; a user's own setting wins.
_os.environ.setdefault("NUMBA_DISABLE_ERROR_MESSAGE_HIGHLIGHTING", "1")

from bloomviz.core import BloomFilter, theory  # noqa: E402

__all__ = ["BloomFilter", "theory", "__version__"]

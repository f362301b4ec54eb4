"""What the File menu's parts share: the file dialogs' filters, and helpers for paths and errors."""

from __future__ import annotations

import os

from bloomviz.i18n import tr

SESSION_FILTER = "bloomviz sessions (*.bloomviz)"
BLOOM_FILTER = "Bloom filters (*.bloom)"
OPEN_FILTER = (f"Sessions and filters (*.bloomviz *.bloom);;{SESSION_FILTER};;{BLOOM_FILTER};;"
               "Other libraries' filters (*.parquet *.guava *.blm *.hex *.bin *.json *.txt *.pybloom *.writeto);;"
               "All files (*)")
TEXT_FILTER = "Text files (*.txt *.lst *.csv *.tsv);;All files (*)"
CSV_FILTER = "CSV files (*.csv)"
APP_TITLE = "bloomviz"


def with_suffix(path: str, suffix: str) -> str:
    return path if os.path.splitext(path)[1] else path + suffix


def os_error_text(path: str, exc: OSError) -> str:
    return f"{path}: {exc.strerror or exc}"



def save_failure(what: str, path: str, exc: Exception) -> str:
    """The message when saving ``what`` ("the filter") to ``path`` failed: the system's reason for an OSError,
    the format's own words for a value it refuses."""
    if isinstance(exc, OSError):
        return tr("Could not save {what}:\n{reason}").format(what=tr(what), reason=os_error_text(path, exc))
    return tr("Could not save {what} to {path}:\n{reason}").format(what=tr(what), path=path, reason=exc)

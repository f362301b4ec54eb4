"""File → Load filter, Save filter as .bloom: a filter's bits without its items.

``FilterFiles`` is a part ``session_io.FileActions`` holds, handed the workbench, the dialogs, the recent files,
the window's ``OpenFile`` and the unsaved-changes question. A loaded filter's items are unknown, so its lookups
cannot be told true or false positives; its bytes are kept (``OpenFile.base``) so a session saved later can
hold it.
"""

from __future__ import annotations

import contextlib
import os
import tempfile

from bloomviz.filters import persist
from bloomviz.disk.safe_files import check_regular
from bloomviz.files import storage
from bloomviz.filters.registry import VARIANTS
from bloomviz.gui.files.file_paths import BLOOM_FILTER, save_failure, with_suffix
from bloomviz.gui.files.open_file import refuse_busy, refused_file
from bloomviz.workbench.limits import MAX_M as WINDOW_MAX_M
from bloomviz.i18n import number, tr


def filter_from_bytes(data: bytes):
    """A filter from the bytes of a ``.bloom`` file, checked exactly as ``storage.load`` checks a file."""
    fd, tmp = tempfile.mkstemp(suffix=".bloom")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        try:
            return storage.load(tmp)
        except storage.FilterFormatError as exc:
            raise storage.FilterFormatError(exc.reason) from None
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)



def filter_args(flt, variant: str) -> dict:
    """(m, k, params) of ``flt`` as ``Workbench.configure`` takes them."""
    params = {name: value for name, value in persist.params_of(flt).items() if name != "stages"}
    sized = VARIANTS[variant].capabilities.sized
    return {"m": flt.m if sized else None, "k": flt.k if sized else None, "params": params}


def loaded_note(flt, source: str, truth: bool) -> str:
    """What the window says of a filter loaded without its items (``truth``: whether they are known)."""
    params = ", ".join(f"{k} = {v:g}" if isinstance(v, float) else f"{k} = {v}"
                       for k, v in persist.params_of(flt).items())
    text = (f"Loaded a {flt.variant} filter from {source}: m = {flt.m:,}, k = {flt.k}, scheme {flt.scheme}"
            + (f", {params}" if params else "") + f"; it holds n = {len(flt):,} inserts "
            f"and {flt.bits_set:,} bits are set (fill {flt.bits_set / flt.m:.1%}).")
    if not truth:
        text += (" A .bloom file stores the bits, not the items: a lookup that passes is “probably in the "
                 "set”, and whether it is a true or a false positive cannot be told.")
    return text


class FilterFiles:
    """Load and save ``.bloom`` filters, of ``FileActions``."""

    def __init__(self, wb, dialogs, recent, file, may_discard):
        self.wb, self.dialogs, self.recent = wb, dialogs, recent
        self.file = file                     # open_file.OpenFile: the path, unsaved state, loaded base
        self.may_discard = may_discard       # (action) -> bool: the unsaved-changes question

    # --- filters (.bloom) -----------------------------------------------------------------------------------
    def load_filter_dialog(self) -> bool:
        if refuse_busy(self.wb, self.dialogs, "Load a filter") or not self.may_discard("load a filter"):
            return False
        path = self.dialogs.open_path("Load a filter", f"{BLOOM_FILTER};;All files (*)", "")
        return self.load_filter_path(path, ask=False) if path else False

    def load_filter_path(self, path: str, ask: bool = True) -> bool:
        """Load a ``.bloom`` file into the window; on any problem a message, and the current filter stays."""
        title = "Load a filter"
        if refuse_busy(self.wb, self.dialogs, title) or (ask and not self.may_discard("load a filter")):
            return False
        try:
            check_regular(path, "a filter (.bloom)")
            header = storage.read_header(path)
            if header.m > WINDOW_MAX_M:
                self.dialogs.error(title, tr("{path}: the filter has m = {m} bits; the window shows at most {most}. "
                                             "(bloomviz inspect and bloomviz check read it.)").format(
                    path=path, m=number(header.m), most=number(WINDOW_MAX_M)))
                return False
            flt = storage.load(path)
        except (storage.FilterFormatError, OSError) as exc:
            return refused_file(self.dialogs, self.recent, path, title, "filter", "load", exc)
        head, payload = storage.encode(flt)
        self.file.replaying = True
        try:
            ok = self.wb.install_filter(flt, note=loaded_note(flt, os.path.basename(path), truth=False))
        finally:
            self.file.replaying = False
        if not ok:
            return False
        self.file.base = (head + payload, len(flt))
        self.file.initial_seed = self.file.current_seed()
        self.recent.add(path)
        self.file.saved(None, label=os.path.basename(path))
        self.file.status(tr("Loaded {path}: {variant}, m = {m}, k = {k}, n = {n}").format(
            path=path, variant=flt.variant, m=number(flt.m), k=flt.k, n=number(len(flt))))
        return True

    def save_filter_dialog(self) -> bool:
        title = "Save the filter"
        if refuse_busy(self.wb, self.dialogs, title):
            return False
        path = self.dialogs.save_path(title, BLOOM_FILTER, "filter.bloom")
        if not path:
            return False
        path = with_suffix(path, ".bloom")
        try:
            storage.save(self.wb.filter, path)
        except (OSError, ValueError, TypeError) as exc:
            self.dialogs.error(title, save_failure("the filter", path, exc))
            return False
        self.recent.add(path)
        self.file.status(tr("Saved the filter's {m} bits to {path} (the items are not stored in a .bloom file; save a "
                        "session to keep them)").format(m=number(self.wb.filter.m), path=path))
        return True

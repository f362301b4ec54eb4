"""The "Other libraries' filter" tab: a filter read from a Parquet, Guava, pybloom-live, pyprobables, Go or raw
file (``bloomviz.formats``), shown as it is.

The grid draws the library's bits in the library's own layout (a Parquet filter's 256-bit blocks, a
pybloom-live filter's slices, a scalable filter's links as bands); beside it the header's numbers, the fill,
the estimated number of items and the rate a never-inserted item meets at this fill; a lookup answers with the
library's own hashing and lights its positions. What was inserted is not in the file, so there is no measured
curve and a passing lookup is "probably in the set", never called a true or a false positive: the tab says so.

The window's own filter is never touched: this tab only reads files. ``install(window)`` adds the tab and
File → "Open another library's filter…"; ``bloomviz.gui.files.session_io`` sends a file that File → Open does not
recognise as a session or a ``.bloom`` filter here when ``formats.detect`` names its format.
"""

from __future__ import annotations

import html
import os

from PySide6 import QtGui, QtWidgets

from bloomviz.gui import theme
from bloomviz.gui.messages import Messages, Msg
from bloomviz.gui.widgets.message_bar import MessageBar
from bloomviz import formats
from bloomviz.filters import bitstore
from bloomviz.formats import atlas
from bloomviz.formats.reasons import render
from bloomviz.formats.why import why
from bloomviz.theory.units import parse_whole
from bloomviz.formats.guava import FUNNELS
from bloomviz.formats.pybloom_live import HASHINGS
from bloomviz.gui.widgets.flow_layout import FlowLayout, keep_together
from bloomviz.gui.widgets.grid import BitGridWidget
from bloomviz.gui.files.file_dialogs import Dialogs
from bloomviz.i18n import marks, ntr, number, tr
from bloomviz.gui.widgets.bounded_text import TOO_LONG, BoundedLine
from bloomviz.items.encoding import ItemError, typed_item
from bloomviz.theory.limits import ITEM_LINE_CHARS
from bloomviz.gui.files.foreign_atlas import AtlasPanel
from bloomviz.gui.files import foreign_words
from bloomviz.workbench.limits import MAX_M

TAB_KEY = "foreign"
TAB_TITLE = "Other libraries' filter"
FILE_FILTER = ("Bloom filters of other libraries (*.parquet *.guava *.bloom *.blm *.hex *.bin *.json *.txt "
               "*.pybloom *.writeto);;All files (*)")
MAX_BANDS = 64    # more bands than this would hide the bits: then only the lookup's own block is outlined


def _bands(layout: dict, m: int, positions=()) -> list[tuple[int, int, str]]:
    kind = layout.get("kind")
    if kind == "slices":
        size = int(layout["slice_bits"])
        return [(i * size, (i + 1) * size, tr("slice {i}").format(i=number(i))) for i in range(int(layout["slices"]))]
    if kind == "links":
        return [(int(off), int(off) + int(mm), tr("link {i}").format(i=number(i)))
                for i, (off, mm, *_r) in enumerate(layout["links"])]
    if kind == "blocks":
        size = int(layout["block_bits"])
        count = m // size
        if count <= MAX_BANDS:
            return [(i * size, (i + 1) * size, tr("block {i}").format(i=number(i))) for i in range(count)]
        return sorted({(p // size * size, p // size * size + size, tr("block {i}").format(i=number(p // size)))
                       for p in positions})
    return []


class ForeignView(Messages, QtWidgets.QWidget):
    class Error(Messages.Error):
        not_opened = Msg("Not opened: {problem}. The filter shown (if any) is unchanged.")
        unreadable = Msg("Not opened: {path}: {problem}. The filter shown (if any) is unchanged.")
        no_filter = Msg("Not opened: {path} holds no Bloom filter (a Parquet file written without bloom filters "
                        "has none).")
        lookup_refused = Msg("Refused: {problem}.")
        too_long = TOO_LONG

    class Information(Messages.Information):
        opened = Msg("{name}: {filters} ({format}).")       # "{count} filters" in the language's plural form

    def __init__(self, dialogs: Dialogs | None = None, parent=None):
        super().__init__(parent)
        self.dialogs = dialogs if dialogs is not None else Dialogs(self)
        self.path: str | None = None
        self.filters: list = []
        self.reasons: list[str] = []
        self.current = None

        self.open_button = QtWidgets.QPushButton(tr("Open a file…"))
        self.folder_button = QtWidgets.QPushButton(tr("Open a folder…"))
        self.folder_button.setToolTip(tr("A git repository (its commit-graph's filters) or a LevelDB or RocksDB "
                                         "database (every table's filters)"))
        self.format_combo = QtWidgets.QComboBox()
        self.format_combo.addItem(tr("detect from the contents"), None)
        for name in formats.FORMATS:
            self.format_combo.addItem(name, name)
        self.funnel = QtWidgets.QComboBox()
        self.funnel.addItems(FUNNELS)
        self.funnel.setToolTip(tr("Guava: how items were turned into bytes (the file does not say)"))
        self.hashing = QtWidgets.QComboBox()
        self.hashing.addItems(HASHINGS)
        self.hashing.setToolTip(tr("pybloom-live: xxh128 (release 4.0) or md5 (up to 3.1) for small filters; the "
                                   "file does not say which"))
        self.known = BoundedLine(ITEM_LINE_CHARS)
        self.known.refused.connect(lambda most: self.show_only(self.Error.too_long, most=number(most)))
        self.known.setPlaceholderText(tr("a known member (picks the hashing that finds it)"))
        self.raw_m = QtWidgets.QLineEdit()
        self.raw_m.setPlaceholderText("m")
        self.raw_k = QtWidgets.QLineEdit()
        self.raw_k.setPlaceholderText("k")
        for edit in (self.raw_m, self.raw_k):
            edit.setMaximumWidth(110)
            edit.setToolTip(tr("raw bytes only: the file holds no header, so m and k are yours to give"))
        self.more = QtWidgets.QLineEdit()
        self.more.setPlaceholderText(tr("more: KEY=VALUE ..."))
        self.more.setToolTip(tr("Options a format declares, as on the command line without the dashes: ")
                             + "; ".join(f"{opt.flag[2:]} ({fmt}): {opt.help}" for fmt, opt in formats.format_options()))
        self.reread_button = QtWidgets.QPushButton(tr("Read again with these settings"))
        self.which = QtWidgets.QComboBox()
        self.which.setToolTip(tr("A Parquet file holds one filter per column and row group"))
        self.grid = BitGridWidget()
        self.atlas = AtlasPanel()
        self.atlas.setVisible(False)
        self.numbers = QtWidgets.QLabel(tr("Open a file written by another library to see its filter."))
        self.numbers.setWordWrap(True)
        self.numbers.setTextFormat(QtGui.Qt.TextFormat.RichText)
        self.item = BoundedLine(ITEM_LINE_CHARS)
        self.item.setPlaceholderText(tr("an item to look up (text; numbers for a numeric Parquet column)"))
        self.item.refused.connect(lambda most: self.show_only(self.Error.too_long, most=number(most)))
        self.lookup_button = QtWidgets.QPushButton(tr("Look up"))
        self.verdict = QtWidgets.QLabel()
        self.verdict.setWordWrap(True)
        # below the lookup, so a long list of reasons never pushes the item field out of sight
        self.why_label = QtWidgets.QLabel()
        self.why_label.setWordWrap(True)
        self.why_label.setTextFormat(QtGui.Qt.TextFormat.RichText)
        self.message = MessageBar()
        self.bind_messages(self.message)

        # rows that wrap: at 250 % on 1440 x 900 they ran ~600 px past the window's edge
        options = FlowLayout()
        for label, widget in (("read as", self.format_combo), ("Guava funnel", self.funnel),
                              ("pybloom-live hashing", self.hashing)):
            options.addWidget(keep_together(QtWidgets.QLabel(tr(label)), widget))
        for widget in (self.known, self.raw_m, self.raw_k, self.more):
            options.addWidget(widget)
        top = FlowLayout()
        top.addWidget(self.open_button)
        top.addWidget(self.folder_button)
        top.addWidget(self.reread_button)
        self.which.setSizePolicy(QtWidgets.QSizePolicy.Policy.Expanding, QtWidgets.QSizePolicy.Policy.Fixed)
        top.addWidget(keep_together(QtWidgets.QLabel(tr("filter")), self.which))
        side = QtWidgets.QVBoxLayout()
        side.addWidget(self.numbers)
        row = QtWidgets.QHBoxLayout()
        row.addWidget(self.item, 1)
        row.addWidget(self.lookup_button)
        side.addLayout(row)
        side.addWidget(self.verdict)
        side.addWidget(self.why_label)
        side.addStretch(1)
        side_box = QtWidgets.QWidget()
        side_box.setLayout(side)
        side_box.setMinimumWidth(360)
        # the column scrolls as a whole: squeezed into the window's height, the numbers' label (rich text that
        # wraps) lost its last rows, and the reasons below the lookup made it worse
        side_scroll = QtWidgets.QScrollArea()
        side_scroll.setWidgetResizable(True)
        side_scroll.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
        side_scroll.setHorizontalScrollBarPolicy(QtGui.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        side_scroll.setWidget(side_box)
        side_scroll.setMinimumWidth(side_box.minimumWidth() + side_scroll.verticalScrollBar().sizeHint().width())
        left = QtWidgets.QSplitter(QtGui.Qt.Orientation.Vertical)
        left.addWidget(self.atlas)
        left.addWidget(self.grid)
        left.setStretchFactor(1, 2)
        left.setSizes([230, 470])
        split = QtWidgets.QSplitter()
        split.addWidget(left)
        split.addWidget(side_scroll)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        layout = QtWidgets.QVBoxLayout(self)
        layout.addLayout(top)
        layout.addLayout(options)
        layout.addWidget(self.message)
        layout.addWidget(split, 1)

        self.open_button.clicked.connect(self.open_dialog)
        self.folder_button.clicked.connect(self.open_folder_dialog)
        self.reread_button.clicked.connect(lambda: self.path and self.open_path(self.path))
        self.which.currentIndexChanged.connect(self.show_filter)
        self.atlas.filterChosen.connect(self.which.setCurrentIndex)
        self.lookup_button.clicked.connect(self.lookup)
        self.item.returnPressed.connect(self.lookup)
        self._set_enabled(False)

    def _set_enabled(self, loaded: bool) -> None:
        for widget in (self.item, self.lookup_button, self.which, self.reread_button):
            widget.setEnabled(loaded)

    def _answer(self, words: str, colour: str) -> None:
        """A lookup's answer, in its verdict's colour (the answer replaces a refused lookup's message)."""
        self.Error.lookup_refused.clear()
        self.verdict.setText(words)
        self.verdict.setStyleSheet(f"color: {colour};")

    def _refuse(self, why: str) -> None:
        self.verdict.clear()         # the last item's answer would read as this one's
        self.Error.lookup_refused(problem=why)

    # --- reading ---------------------------------------------------------------------------------------------
    def open_dialog(self) -> bool:
        directory = os.path.dirname(self.path) if self.path else ""
        path = self.dialogs.open_path("Open another library's Bloom filter", FILE_FILTER, directory)
        return self.open_path(path) if path else False

    def open_folder_dialog(self) -> bool:
        directory = os.path.dirname(self.path) if self.path else ""
        path = self.dialogs.open_directory("Open a git repository or a LevelDB or RocksDB database", directory)
        return self.open_path(path) if path else False

    def options(self) -> dict:
        opts = {"funnel": self.funnel.currentText(), "hashing": self.hashing.currentText()}
        if self.known.text().strip():
            opts["known_member"] = self.known.text().strip()
        for key, edit in (("m", self.raw_m), ("k", self.raw_k)):
            if edit.text().strip():
                opts[key] = parse_whole(edit.text(), key, low=0)     # the reader checks its own range
        return opts

    def more_options(self) -> tuple[dict, list]:
        """({dest: (format, option, value)} read options, [(format, option, value)] selectors) from the "more"
        field's KEY=VALUE words."""
        declared = {}
        for fmt, opt in formats.format_options():
            declared.setdefault(opt.flag[2:], (fmt, opt))
            declared.setdefault(opt.dest, (fmt, opt))
        read, select = {}, []
        for word in self.more.text().replace(",", " ").split():
            key, sep, value = word.partition("=")
            if not sep or key.lstrip("-") not in declared:
                raise ValueError(f"{word!r} is not KEY=VALUE of a known option ({', '.join(sorted(declared))})")
            fmt, opt = declared[key.lstrip("-")]
            try:
                converted = opt.type(value)
            except (ValueError, TypeError) as exc:
                raise ValueError(f"{key}: {exc}") from None
            if opt.select is None:
                read[opt.dest] = (fmt, opt, converted)
            else:
                select.append((fmt, opt, converted))
        return read, select

    def open_path(self, path: str, fmt: str | None = None) -> bool:
        """Read ``path`` (format detected unless chosen); on any refusal the filter shown stays as it was."""
        fmt = fmt if fmt is not None else self.format_combo.currentData()
        try:
            read, select = self.more_options()
            found = formats.open_filters(path, format=fmt, **self.options(),
                                         **{dest: value for dest, (_f, _o, value) in read.items()})
            for owner, opt, value in [*read.values(), *select]:
                if found and found[0].format != owner:
                    raise ValueError(f"{opt.flag[2:]} applies to {owner} files, not {found[0].format}")
                if opt.select is not None:
                    found = opt.select(found, value)
        except (formats.ForeignFormatError, ValueError) as exc:
            self.show_only(self.Error.not_opened, problem=exc)
            return False
        except OSError as exc:
            self.show_only(self.Error.unreadable, path=path, problem=exc.strerror or exc)
            return False
        if not found:
            self.show_only(self.Error.no_filter, path=path)
            return False
        self.path, self.filters = path, found
        self.reasons = why(found[0].format, found)
        self.which.blockSignals(True)
        self.which.clear()
        for flt in found:
            self.which.addItem(flt.label or tr("{format} filter").format(format=flt.format))
        self.which.blockSignals(False)
        self._set_enabled(True)
        self.show_only(self.Information.opened, name=os.path.basename(path), format=found[0].format,
                       filters=ntr("{count} filter", "{count} filters", len(found)).format(count=number(len(found))))
        self.atlas.setVisible(len(found) > 1)
        if len(found) > 1:
            summaries = [f.summary() for f in found]
            sources = atlas.source_files(path, summaries)
            self.atlas.set_filters(summaries, atlas.path_bytes(path, summaries),
                                   None if sources is None else len(sources))
        self.show_filter(0)
        return True

    def show_filter(self, index: int) -> None:
        if not 0 <= index < len(self.filters):
            return
        flt = self.current = self.filters[index]
        self.atlas.show_current(index)
        self.verdict.setText("")
        if flt.m <= MAX_M:
            self.grid.reset(flt.m, bitstore.unpack(flt.bits))
            self.grid.set_bands(_bands(flt.layout, flt.m))
        else:
            self.grid.reset(1)
        self.numbers.setText(self.numbers_html(flt))
        self.why_label.setText(self.why_html())

    def why_html(self) -> str:
        """The system's reasons its rate can be above the configured one (``formats.why``): its own rules, with
        the numbers of the file shown."""
        if not self.reasons:
            return ""
        items = "".join(f"<li>{html.escape(render(reason, tr, number, marks))}</li>" for reason in self.reasons)
        return f"<p><b>{html.escape(tr('Why the rate can be higher than configured'))}</b></p><ul>{items}</ul>"

    @staticmethod
    def numbers_html(flt) -> str:
        return foreign_words.numbers_html(flt)

    # --- looking up ------------------------------------------------------------------------------------------
    def lookup(self) -> bool:
        flt, text = self.current, self.item.text()
        if flt is None or not text:
            return False
        try:
            text = typed_item(text, "Look up")    # a line with its ending is that line; several lines are refused
        except ItemError as exc:
            self._refuse(str(exc))
            return False
        if len(self.filters) > 1:
            return self._lookup_many(text)
        try:
            found = flt.lookup(text)
        except (ValueError, TypeError) as exc:
            self._refuse(str(exc))
            return False
        positions = list(found.positions)
        bits = list(found.bits)
        if flt.m <= MAX_M and positions:
            self.grid.set_bands(_bands(flt.layout, flt.m, positions))
            self.grid.highlight(positions, ["one" if b else "zero" for b in bits])
        colour = theme.colour("probably" if found.maybe_present else "success")
        zero = next((p for p, b in zip(positions, bits) if not b), None)
        words = foreign_words.one_filter_answer(found.maybe_present, positions, zero)
        self._answer(f"“{html.escape(text)}”: {words}", colour)
        return True

    def _name(self, index: int) -> str:
        return foreign_words.filter_name(self.filters[index].label, index)

    def _lookup_many(self, text: str) -> bool:
        """A file of many filters: the item goes where the file sends it (a table's index names one block's
        filter) or else to every filter; the answer names the filter, and the grid shows it."""
        targets = formats.route(self.filters[0].format, self.filters, text)
        where = {id(f): i for i, f in enumerate(self.filters)}
        answers, refusals = [], []
        for f in targets:
            try:
                answers.append((where[id(f)], f.lookup(text)))
            except (ValueError, TypeError) as exc:
                refusals.append(str(exc))
        if not answers:
            why = refusals[0] if refusals else tr("no filter of the file covers it")
            self._refuse(why)
            return False
        hits = [(i, a) for i, a in answers if a.maybe_present]
        index, found = hits[0] if hits else answers[0]
        self.which.setCurrentIndex(index)
        flt = self.filters[index]
        if flt.m <= MAX_M and found.positions:
            self.grid.set_bands(_bands(flt.layout, flt.m, found.positions))
            self.grid.highlight(list(found.positions), ["one" if b else "zero" for b in found.bits])
        words = foreign_words.many_filters_answer(self._name(index), len(hits), len(answers), len(self.filters),
                                                  len(targets), refusals, None if hits else found.zero_positions[0])
        colour = theme.colour("probably" if hits else "success")
        self._answer(f"“{html.escape(text)}”: {words}", colour)
        return True


def install(window) -> ForeignView:
    view = ForeignView()
    window.add_tab(TAB_KEY, TAB_TITLE, view, "A Bloom filter from another library's file (Parquet, Guava, "
                                             "pybloom-live, pyprobables, Go, raw bytes), read-only")
    window.foreign = view

    def open_foreign() -> None:
        if view.open_dialog():
            window.show_tab(TAB_KEY)

    action = QtGui.QAction(tr("Open another library's filter…"), window)
    action.setStatusTip(tr("Parquet, Guava, pybloom-live, pyprobables, Go or raw bytes: see how full it is, what "
                           "rate it gives, and look items up with the library's own hashing"))
    action.triggered.connect(open_foreign)
    window.menu("&File").addAction(action)
    return view

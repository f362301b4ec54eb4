"""The Scenario dock: the running scenario's story and its interactive step.

- spell checker: the paragraph (editable) and "Check the paragraph": every distinct word is looked up through
  the workbench; the result shows the text with flagged words and accepted misspellings (false positives)
  marked, and the last lookup made is a false positive when there is one, so the grid and the explain panel
  show who set its bits;
- the others: one line ("Try this password", "Send to this address", "Check this key", "Visit this URL"), a
  list of examples worth trying (including a false positive found at run time when there is one), and the
  answer in the scenario's words. For the contacts a new address brings the "Save contact?" prompt; Yes
  inserts it.

Every lookup and insert goes through the workbench, so the grid, the history and the explain panel follow; the
verdict shown is the workbench's (it knows the truth, including contacts saved along the way).
"""

from __future__ import annotations

import html
from typing import Callable

from PySide6 import QtCore, QtGui, QtWidgets

from bloomviz.scenarios.base import Judged
from bloomviz.vocabulary import Verdict
from bloomviz.scenarios.spelling import SpellChecker
from bloomviz.gui import theme
from bloomviz.gui.workbench import QtWorkbench
from bloomviz.gui.messages import Messages, Msg
from bloomviz.gui.plain_text import ask_yes_no
from bloomviz.gui.widgets.message_bar import MessageBar
from bloomviz.i18n import number, tr
from bloomviz.gui.widgets.bounded_text import TOO_LONG, BoundedLine, BoundedPlainText
from bloomviz.theory.limits import ITEM_LINE_CHARS, PARAGRAPH_CHARS

COLOURS = theme.SCENARIO_COLOURS


def _default_ask(parent: QtWidgets.QWidget) -> Callable[[str, str], bool]:
    def ask(title: str, question: str) -> bool:
        return ask_yes_no(parent, title, question)
    return ask


class ScenarioPanel(Messages, QtWidgets.QWidget):
    checked = QtCore.Signal(object)        # a list of Judged after every check

    class Error(Messages.Error):
        not_run = Msg("Scenario not run — {problem}")
        lookup_refused = Msg("Refused: see the status bar.")
        too_long = TOO_LONG

    def __init__(self, workbench: QtWorkbench, runner, ask: Callable[[str, str], bool] | None = None,
                 parent=None):
        super().__init__(parent)
        self.wb = workbench
        self.runner = runner
        self.ask = ask or _default_ask(self)
        self.last_verdicts: list[Judged] = []
        self.message = MessageBar()
        self.bind_messages(self.message)

        self.title = QtWidgets.QLabel(tr("<b>No scenario yet</b> — pick one from the Scenarios menu or the Start tab."))
        self.title.setWordWrap(True)
        self.story = QtWidgets.QTextBrowser()
        self.story.setToolTip(tr("The scenario's story, with the numbers of the filter just built."))
        self.story.setMinimumHeight(80)

        # one line to check (passwords, contacts, keys, URLs)
        self.line = BoundedLine(ITEM_LINE_CHARS)
        self.line.refused.connect(lambda most: self.show_only(self.Error.too_long, most=number(most)))
        self.line.returnPressed.connect(self.check_line)
        self.check_button = QtWidgets.QPushButton(tr("Check"))
        self.check_button.clicked.connect(self.check_line)
        self.examples = QtWidgets.QComboBox()
        self.examples.setToolTip(tr("Items worth trying; a false positive found for this filter is among them "
                                    "when there is one."))
        self.examples.activated.connect(self._use_example)
        line_row = QtWidgets.QHBoxLayout()
        line_row.addWidget(self.line, 1)
        line_row.addWidget(self.check_button)
        self.line_box = QtWidgets.QWidget()
        lb = QtWidgets.QVBoxLayout(self.line_box)
        lb.setContentsMargins(0, 0, 0, 0)
        lb.addLayout(line_row)
        ex_row = QtWidgets.QHBoxLayout()
        ex_row.addWidget(QtWidgets.QLabel(tr("Try:")))
        ex_row.addWidget(self.examples, 1)
        lb.addLayout(ex_row)

        # a paragraph to check (spell checker)
        self.text = BoundedPlainText(PARAGRAPH_CHARS)
        self.text.refused.connect(lambda most: self.show_only(self.Error.too_long, most=number(most)))
        # wrapped at words only: wrapping a long unbroken line anywhere took Qt time quadratic in its length
        self.text.setWordWrapMode(QtGui.QTextOption.WrapMode.WordWrap)
        self.text.setToolTip(tr("The text to spell-check; edit it freely."))
        self.text.setMaximumHeight(130)
        self.text_button = QtWidgets.QPushButton(tr("Check the paragraph"))
        self.text_button.setToolTip(tr("Look up every distinct word of the paragraph in the filter."))
        self.text_button.clicked.connect(self.check_paragraph)
        self.text_box = QtWidgets.QWidget()
        tb = QtWidgets.QVBoxLayout(self.text_box)
        tb.setContentsMargins(0, 0, 0, 0)
        tb.addWidget(self.text)
        tb.addWidget(self.text_button)

        self.result = QtWidgets.QTextBrowser()
        self.result.setToolTip(tr("The answer to the last check, in the scenario's words."))
        self.result.setMinimumHeight(60)

        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.title)
        layout.addWidget(self.message)
        layout.addWidget(self.story, 3)
        layout.addWidget(self.line_box)
        layout.addWidget(self.text_box)
        layout.addWidget(self.result, 2)
        self._set_interactive(False)

        runner.started.connect(self._on_started)
        runner.finished.connect(self._on_finished)
        runner.failed.connect(self._on_failed)
        workbench.filterReset.connect(self._on_filter_reset)

    # --- runner -> panel -----------------------------------------------------------------------------------
    def _set_interactive(self, on: bool, spell: bool = False) -> None:
        self.line_box.setVisible(on and not spell)
        self.text_box.setVisible(on and spell)

    def _on_started(self, key: str) -> None:
        sc = self.runner.scenario
        self.clear_messages()
        self.title.setText(f"<b>{html.escape(tr(sc.title))}</b> — " + html.escape(
            tr("loading {count} items…").format(count=number(len(sc.items)))))
        self.story.setPlainText("")
        self.result.clear()
        self._set_interactive(False)

    def _on_failed(self, key: str, message: str) -> None:
        self.Error.not_run(problem=message)

    def _on_filter_reset(self) -> None:
        # Another filter replaced the scenario's (new parameters, a load, a reset): its check no longer applies.
        if self.runner.scenario is not None and not self.runner.running and not self._is_scenario_filter():
            self.title.setText(f"<b>{html.escape(tr(self.runner.scenario.title))}</b> — " + html.escape(
                tr("the filter was replaced; run the scenario again to check against it.")))
            self._set_interactive(False)

    def _is_scenario_filter(self) -> bool:
        sc = self.runner.scenario
        d = sc.design()
        flt = self.wb.filter
        return (flt.m, flt.k) == (d.m, d.k) and len(flt) >= len(sc.items)

    def _on_finished(self, key: str) -> None:
        sc = self.runner.scenario
        self.title.setText(f"<b>{html.escape(tr(sc.title))}</b> — " + html.escape(
            tr("{count} items in; m = {m}, k = {k}").format(count=number(len(sc.items)), m=number(self.wb.filter.m),
                                                            k=self.wb.filter.k)))
        self.story.setHtml("".join(f"<p>{html.escape(p)}</p>" for p in self.runner.story))
        spell = isinstance(sc, SpellChecker)
        self._set_interactive(True, spell)
        if spell:
            self.text.setPlainText(sc.paragraph)
        else:
            self.line.clear()
            self.line.setPlaceholderText(tr(sc.check_hint))
            self.check_button.setText(tr(sc.check_label))
            self.examples.clear()
            self.examples.addItem(tr("— pick an example —"))
            for item in sc.examples(self.wb.filter):
                self.examples.addItem(item)

    # --- checks --------------------------------------------------------------------------------------------
    def _lookup(self, item: str) -> Judged | None:
        """One lookup through the workbench; its verdict (the workbench knows the truth) as a Judged."""
        before = len(self.wb.history)
        if self.wb.lookup(item) is None or len(self.wb.history) == before:
            return None
        verdict = self.wb.history[-1].verdict
        return Judged(item, member=verdict in (Verdict.TRUE_POSITIVE, Verdict.FALSE_NEGATIVE),
                       passes=verdict not in (Verdict.TRUE_NEGATIVE, Verdict.FALSE_NEGATIVE))

    def _use_example(self, index: int) -> None:
        if index > 0:
            self.line.setText(self.examples.itemText(index))
            self.check_line()

    def check_line(self) -> Judged | None:
        sc = self.runner.scenario
        item = self.line.text().strip()
        if sc is None or not item:
            return None
        v = self._lookup(item)
        if v is None:
            self.result.clear()
            self.Error.lookup_refused()
            return None
        self.Error.lookup_refused.clear()
        text = sc.verdict_text(v)
        parts = [f"<p style='color:{COLOURS[v.kind]}'><b>{html.escape(tr(f'{v.kind}').upper())}</b> — "
                 f"{html.escape(text)}</p>"]
        if sc.key == "contacts" and v.kind == Verdict.TRUE_NEGATIVE:
            if self.ask(tr("Save contact?"), tr("{item} is not in your address book. Save it as a contact?").format(
                    item=item)):
                self.wb.insert(item)
                parts.append("<p>" + html.escape(tr("Saved: {item} is now in the address book (its {k} bits are "
                                                    "set).").format(item=item, k=self.wb.filter.k)) + "</p>")
            else:
                parts.append(f"<p>{html.escape(tr('Not saved.'))}</p>")
        self.result.setHtml("".join(parts))
        self.last_verdicts = [v]
        self.checked.emit(self.last_verdicts)
        return v

    def check_paragraph(self) -> list[Judged]:
        sc = self.runner.scenario
        if not isinstance(sc, SpellChecker):
            return []
        from bloomviz.scenarios.spelling import words_of
        text = self.text.toPlainText()
        verdicts: list[Judged] = []
        for word in dict.fromkeys(words_of(text)):
            v = self._lookup(word)
            if v is not None:
                verdicts.append(v)
        fps = [v for v in verdicts if v.false_positive]
        if fps:
            self._lookup(fps[0].item)   # the last lookup: the grid and the explain panel show its culprits
        self.last_verdicts = verdicts
        self.result.setHtml(self._paragraph_html(text, verdicts))
        self.checked.emit(verdicts)
        return verdicts

    @staticmethod
    def _paragraph_html(text: str, verdicts: list[Judged]) -> str:
        import re
        kinds = {v.item: v.kind for v in verdicts}

        def mark(match: re.Match) -> str:
            word = match.group(0)
            kind = kinds.get(word.lower())
            if kind == Verdict.TRUE_NEGATIVE:
                return (f"<span style='color:{COLOURS[kind]}; text-decoration:underline'>"
                        f"{html.escape(word)}</span>")
            if kind == Verdict.FALSE_POSITIVE:
                return f"<b style='color:{theme.SCENARIO_TEXT}; background:{COLOURS[kind]}'>&nbsp;{html.escape(word)}&nbsp;</b>"
            return html.escape(word)

        marked = "".join(mark(m) if m.group(0).isalpha() else html.escape(m.group(0))
                         for m in re.finditer(r"[A-Za-z]+|[^A-Za-z]+", text))
        flagged = [v.item for v in verdicts if v.kind == Verdict.TRUE_NEGATIVE]
        fps = [v.item for v in verdicts if v.false_positive]
        def coloured(kind: Verdict, text: str) -> str:
            return f"<span style='color:{COLOURS[kind]}'><b>{html.escape(text)}</b></span>"

        summary = "<p>" + tr("{checked} distinct words checked: {flagged} (not in the dictionary: {words}); {accepted} "
                             "— false positives: {false_positives}.").format(
            checked=f"<b>{number(len(verdicts))}</b>",
            flagged=coloured(Verdict.TRUE_NEGATIVE, tr("{count} flagged").format(count=number(len(flagged)))),
            words=html.escape(", ".join(flagged)) or tr("none"),
            accepted=coloured(Verdict.FALSE_POSITIVE, tr("{count} accepted although not words").format(
                count=number(len(fps)))),
            false_positives=html.escape(", ".join(fps)) or tr("none")) + "</p>"
        note = ("<p><small>" + tr("Underlined: flagged as misspelt. Red: a misspelling the filter accepts (a false "
                                  "positive); the explain panel shows which dictionary words set its bits.")
                + "</small></p>" if fps else "")
        return summary + f"<p>{marked}</p>" + note

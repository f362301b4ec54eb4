"""The lesson file format: Markdown with fenced ``bloomviz`` action blocks, parsed strictly.

Why Markdown: a lesson is mostly narration, and teachers already write Markdown (it renders on GitHub, in
editors and in slides tools); formulas go in as Unicode. Actions sit in fenced blocks, one per line, so every
action has its own line number and an error can name it (TOML would put narration in strings and its parser
gives no line for a semantic error such as an unknown scheme).

    # Title                    the first non-blank line; exactly one
    intro paragraphs           optional
    ## Step title              starts a step; every step needs a title
    narration paragraphs
    ```bloomviz
    action arg arg key=value   one action per line; quote items holding spaces ("like this"); # comments
    predict KIND …             a question for the class (predict.py): its ask and choice lines follow it,
    ask QUESTION               read as written; only expect lines may follow a predict in its step
    choice CONDITION LABEL
    ```
    narration below a predict  shown once the answer is revealed (the explanation the class must not see first)

``parse_text`` / ``parse_file`` return a ``Lesson`` (plain data: steps of narration and ``LessonAction`` records) or
raise ``LessonError`` naming the file, the line and the reason. Every action's arguments are checked here,
before anything runs; what depends on the filter's state is checked by a dry run (``runner.check``).
"""

from __future__ import annotations

import os
import re
import shlex

from bloomviz.lessons import budget, predict
from bloomviz.lessons.actions import REGISTRY, check_action
from bloomviz.lessons.lesson import Lesson, LessonAction, LessonError, LessonStep

FENCE = re.compile(r"^(```|~~~)\s*(\S*)\s*$")
MAX_LESSON_BYTES = 1 << 20          # a lesson is text a person wrote: a megabyte is far beyond any


def _tokens(text: str, path: str, line: int) -> list[str]:
    try:
        lexer = shlex.shlex(text, posix=True, punctuation_chars=False)
        lexer.whitespace_split = True
        lexer.commenters = ""
        return list(lexer)
    except ValueError as exc:            # shlex: "No closing quotation"
        raise LessonError(path, line, f"{exc} in {text.strip()!r}") from None


def parse_action(text: str, path: str, line: int) -> LessonAction:
    words = _tokens(text, path, line)
    longest = max(words, key=len)
    if len(longest) > budget.MAX_WORD:
        raise LessonError(path, line, "a word of {count} characters, more than {most}: an item or an argument is a "
                                      "word, a key or a number", count=len(longest), most=budget.MAX_WORD)
    name, rest = words[0], words[1:]
    if name not in REGISTRY:
        raise LessonError(path, line, "unknown action {name}; known actions: {known}", name=repr(name),
                          known=", ".join(REGISTRY))
    spec = REGISTRY[name]
    args, options = [], {}
    for word in rest:
        key, eq, value = word.partition("=")
        if eq and key in spec.options:
            if key in options:
                raise LessonError(path, line, "{action}: option {key} is given twice", action=name, key=repr(key))
            options[key] = value
        elif eq and key and re.fullmatch(r"[a-z_]+", key) and not spec.items:
            if spec.options:
                raise LessonError(path, line, "{action}: unknown option {key}; it takes: {options}", action=name,
                                  key=repr(key), options=", ".join(spec.options))
            raise LessonError(path, line, "{action}: unknown option {key}; it takes no options", action=name,
                              key=repr(key))
        else:
            args.append(word)
    try:
        args_checked, options_checked = check_action(name, args, options)
    except ValueError as exc:
        raise LessonError(path, line, f"{name}: {exc}") from None
    return LessonAction(name, tuple(args_checked), options_checked, line)


def _close_predict(step: dict, path: str) -> None:
    block = step.pop("predict_block", None)
    if block is not None:
        try:
            args, options = block.action_parts()
        except predict.PredictSyntaxError as exc:
            raise LessonError(path, exc.line, "predict: {why}", why=exc.args[0]) from None
        step["actions"].append(LessonAction("predict", args, options, block.line))


def _block_line(step: dict, body: str, path: str, number: int) -> None:
    """One line of an action block: an action, or an ``ask``/``choice`` line continuing a predict block."""
    if len(body) > budget.MAX_ACTION_LINE:
        raise LessonError(path, number, "an action line of {count} characters, more than {most}: put many items on "
                                        "several lines", count=len(body), most=budget.MAX_ACTION_LINE)
    word = body.split(None, 1)[0]
    if word in predict.CONTINUATIONS:
        if "predict_block" not in step:
            raise LessonError(path, number, "{word} belongs to a predict block: put it right after its predict line",
                              word=word)
        try:
            step["predict_block"].add(body, number)
        except predict.PredictSyntaxError as exc:
            raise LessonError(path, exc.line, "predict: {why}", why=exc.args[0]) from None
        return
    _close_predict(step, path)
    if step.get("predicted") and word != "expect":
        # the class must not see the answer before Reveal: nothing after a predict may change what is shown
        raise LessonError(path, number, "{word} after a predict in the same step: only expect lines may follow a "
                                        "predict (they check the answer); put this in the next step", word=word)
    if word == "predict":
        try:
            step["predict_block"] = predict.start(body, number, lambda b: _tokens(b, path, number))
        except predict.PredictSyntaxError as exc:
            raise LessonError(path, exc.line, "predict: {why}", why=exc.args[0]) from None
        step["predicted"] = True
        return
    step["actions"].append(parse_action(body, path, number))


def parse_text(text: str, path: str = "<lesson>") -> Lesson:
    title, intro, steps = None, [], []
    current: dict | None = None
    fence_line, in_block = 0, False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        fence = FENCE.match(line.strip())
        if in_block:
            if fence and not fence.group(2):
                _close_predict(current, path)
                in_block = False
                continue
            body = line.strip()
            if body and not body.startswith("#"):
                _block_line(current, body, path, number)
            continue
        if fence:
            lang = fence.group(2)
            if lang != "bloomviz":
                raise LessonError(path, number, "a fenced block must be ```bloomviz (actions), got ```{lang}; put "
                                                "examples for readers in indented text", lang=lang)
            if current is None:
                raise LessonError(path, number, "an action block before the first step (## title)")
            in_block, fence_line = True, number
            continue
        if line.startswith("# ") or line == "#":
            if title is not None:
                raise LessonError(path, number, "a second lesson title (# ...): a file holds one lesson; "
                                                "steps start with ##")
            if steps or current:
                raise LessonError(path, number, "the title (# ...) must come before the steps")
            title = line[2:].strip()
            if not title:
                raise LessonError(path, number, "the lesson title is empty")
            continue
        if line.startswith("## ") or line == "##":
            if title is None:
                raise LessonError(path, number, "a step before the lesson title (# Title on the first line)")
            if current is not None:
                steps.append(current)
            heading = line[3:].strip()
            if not heading:
                raise LessonError(path, number, "a step without a title (## Title)")
            current = {"title": heading, "text": [], "after": [], "actions": [], "line": number}
            continue
        if title is None:
            if line.strip():
                raise LessonError(path, number, "a lesson starts with its title: # Title")
            continue
        if current is None:
            intro.append(line)
        else:
            current["after" if current.get("predicted") else "text"].append(line)
    if in_block:
        raise LessonError(path, fence_line, "this ```bloomviz block is never closed with ```")
    if title is None:
        raise LessonError(path, 0, "empty: a lesson needs a # Title and at least one ## step")
    if current is not None:
        steps.append(current)
    if not steps:
        raise LessonError(path, 0, "no steps: each step starts with ## Title")
    _check_sizes(title, intro, steps, path)
    return Lesson(title=title, intro="\n".join(intro).strip(), path=path,
                  steps=tuple(LessonStep(s["title"], "\n".join(s["text"]).strip(), tuple(s["actions"]), s["line"],
                                   "\n".join(s["after"]).strip()) for s in steps))


def _check_sizes(title: str, intro: list, steps: list, path: str) -> None:
    """Narration a screen can lay out: bounded steps, text per step and words (a 1 MiB word hung the layout)."""
    if len(steps) > budget.MAX_STEPS:
        raise LessonError(path, steps[budget.MAX_STEPS]["line"], "more than {most} steps: split the lesson",
                          most=budget.MAX_STEPS)
    why = budget.check_text(title, "the title") or budget.check_text("\n".join(intro), "the introduction")
    if why:
        raise LessonError(path, 1, why)
    for s in steps:
        why = budget.check_text(s["title"], "the step's title") or \
            budget.check_text("\n".join(s["text"] + s["after"]), "this step's narration")
        if why:
            raise LessonError(path, s["line"], why)


def parse_file(path) -> Lesson:
    """Read and parse a lesson file; OSError and decoding problems become a LessonError naming the file."""
    name = os.fsdecode(path)
    from bloomviz.disk.safe_files import open_regular
    try:
        with open_regular(name, MAX_LESSON_BYTES, "a lesson file") as f:
            raw = f.read(MAX_LESSON_BYTES + 1)
    except FileNotFoundError:
        raise LessonError(name, 0, "no such file") from None
    except (OSError, TypeError) as exc:
        raise LessonError(name, 0, getattr(exc, "strerror", None) or str(exc)) from None
    if len(raw) > MAX_LESSON_BYTES:
        raise LessonError(name, 0, "larger than {most} bytes: not a lesson", most=MAX_LESSON_BYTES)
    if raw.startswith(b"\xef\xbb\xbf"):   # a UTF-8 byte order mark (Notepad writes one): not part of the title
        raw = raw[3:]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise LessonError(name, line, "not UTF-8 text (byte {byte})", byte=f"0x{raw[exc.start]:02x}") from None
    return parse_text(text, name)

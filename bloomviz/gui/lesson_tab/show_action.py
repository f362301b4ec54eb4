"""A lesson step's ``show tab=NAME`` or ``show scenario=NAME`` carried out in the window (the runner only
records it; the Lesson tab emits it after Next, never while going back or drawing ``--shots``)."""

from __future__ import annotations


def show_in_window(window, view, shown: dict) -> None:
    """A step's ``show tab=`` or ``show scenario=``: the window switches to it, outside presenter mode only (a
    lecture's full screen stays on the lesson; the title line says what the step would open)."""
    what = f"the {shown['tab'].capitalize()} tab" if "tab" in shown else f"the scenario “{shown['scenario']}”"
    presenter = getattr(window, "presenter", None)
    if presenter is not None and presenter.active:
        view.show_only(view.Information.opens_elsewhere, what=what)
    elif "tab" in shown:
        window.show_tab(shown["tab"])
    elif getattr(window, "scenarios", None) is not None:
        window.scenarios.run(shown["scenario"])

"""bloomviz in a notebook: ``BloomWidget``, the window's model as an interactive widget (needs the ``notebook``
extra: ``pip install 'bloomviz[notebook]'``). Plain filters keep their static ``_repr_html_``
(``bloomviz.filters.notebook``). ``view_state`` lays the model out for the browser and needs only numpy."""


def __getattr__(name: str):
    if name == "BloomWidget":
        try:
            from bloomviz.notebook.widget import BloomWidget
        except ModuleNotFoundError as exc:
            if exc.name in ("anywidget", "traitlets", "ipywidgets"):
                raise ImportError("BloomWidget needs anywidget: pip install 'bloomviz[notebook]'") from exc
            raise
        return BloomWidget
    raise AttributeError(f"module 'bloomviz.notebook' has no attribute {name!r}")

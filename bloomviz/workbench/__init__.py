"""The window's model, without Qt: the filter shown, what was really inserted, the live measurement, the
history, undo, and long work as steppable jobs.

``model.Workbench`` is the object views call; each operation returns the core's own result and emits one
``records.Operation``. ``bloomviz.explain`` turns records into words; ``bloomviz.gui.workbench`` is the one
Qt adapter. Importing this package loads no Qt.
"""

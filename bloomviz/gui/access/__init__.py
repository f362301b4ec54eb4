"""What a screen reader, a keyboard and the system's settings need of the window: accessible names and
descriptions (``names``), the grid's cell cursor and spoken verdicts (``speech``), reduced motion (``motion``)
and the system's colour scheme (``scheme``)."""

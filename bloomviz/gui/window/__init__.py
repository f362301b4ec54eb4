"""The main window's pieces, one file each; ``bloomviz.gui.main_window.MainWindow`` puts them together."""

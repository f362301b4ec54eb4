"""The build step pyproject.toml cannot declare: compile the window's translations (bloomviz/i18n/*.po) to the
.mo files gettext reads, so that ``pip install .`` puts them in the installed package and ``pip install -e .``
beside the .po in the checkout. Everything else about the package is in pyproject.toml."""

import importlib.util
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
I18N = HERE / "bloomviz" / "i18n"


def _catalogue():
    # by file path: importing the bloomviz package would need its dependencies, absent at build time
    spec = importlib.util.spec_from_file_location("_bloomviz_catalogue", I18N / "catalogue.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module        # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


class BuildWithTranslations(build_py):
    def run(self):
        super().run()
        catalogue = _catalogue()
        # an editable install serves the package from the checkout, so its .mo files go there
        target = I18N if self.editable_mode else Path(self.build_lib) / "bloomviz" / "i18n"
        for po in sorted(I18N.glob("*.po")):
            count = catalogue.compile_file(po, target / (po.stem + ".mo"))
            print(f"compiled {po.name}: {count} translated strings -> {target / (po.stem + '.mo')}")


setup(cmdclass={"build_py": BuildWithTranslations})

"""bloomviz: a desktop app that makes Bloom filters visible."""

__version__ = "0.1.0"

from bloomviz.core import BloomFilter, theory  # noqa: E402

__all__ = ["BloomFilter", "theory", "__version__"]

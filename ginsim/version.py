"""The version of ginsim (one place: the package, the manifests and the build read it)."""

__version__ = "0.3.0"

"""The version of pkc and of this shim: the one place to change it (the
Makefile reads PKC_VERSION from here, pyproject.toml reads the package's)."""
__version__ = "0.1.0"
